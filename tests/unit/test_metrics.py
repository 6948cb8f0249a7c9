"""BLEU/chrF/TER equal sacrebleu's command line for each target language with the tokenizer the
config names; the authors' NLTK BLEU equals NLTK (or hand-computed values without NLTK)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from gendermt.core.errors import GenderMTError
from gendermt.scoring import metrics, nltk_bleu
from gendermt.scoring.sacrebleu_metrics import bleu_tokenizer, with_tokenizer
from gendermt.scoring.score import score_frame

from ..conftest import ROOT

SHARED = ROOT.parent / "shared" / "data"
SACREBLEU = shutil.which("sacrebleu", path=str(Path(sys.executable).parent)) or "sacrebleu"
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))

# Greek: no Greek data is in ../shared, so a few hand-written sentences and near-misses.
GREEK = [
    ("Η γιατρός εξέτασε τον ασθενή και του έδωσε φάρμακα.",
     "Ο γιατρός εξέτασε τον ασθενή και του έδωσε φάρμακο."),
    ("Ο νοσηλευτής ήρθε νωρίς στο νοσοκομείο σήμερα.",
     "Η νοσηλεύτρια ήρθε νωρίς στο νοσοκομείο σήμερα."),
    ("Η μηχανικός σχεδίασε τη νέα γέφυρα της πόλης.",
     "Ο μηχανικός σχεδίασε τη γέφυρα της πόλης."),
    ("Ο δικηγόρος μίλησε με την πελάτισσά του, «ήταν αθώα».",
     "Η δικηγόρος μίλησε με την πελάτισσά της, «ήταν αθώα»."),
    ("Η δασκάλα διάβασε μια ιστορία στα παιδιά.",
     "Ο δάσκαλος διάβασε μια ιστορία στα παιδιά!"),
    ("Ο προγραμματιστής διόρθωσε το σφάλμα χθες το βράδυ.",
     "Η προγραμματίστρια διόρθωσε το σφάλμα χθες."),
]


def _gate(lang: str) -> tuple[list[str], list[str]]:
    """GATE's feminine variants as hypotheses of its masculine ones (first 200 rows)."""
    frame = pd.read_csv(SHARED / "gate" / lang / f"{lang}_2_variants.tsv", sep="\t",
                        quoting=3, dtype=str, keep_default_na=False).head(200)
    return list(frame["f"]), list(frame["m"])


def _gate_xe() -> tuple[list[str], list[str]]:
    """GATE X-E (→English): gender-neutral rewrites as hypotheses of the feminine originals."""
    frame = pd.read_csv(SHARED / "gate-x-e" / "turkish" / "pre_processed" /
                        "TUR_test_fem_src_neut.tsv", sep="\t", header=None, quoting=3,
                        dtype=str, keep_default_na=False).head(200)
    return list(frame[2]), list(frame[1])


def pairs_for(lang: str) -> tuple[list[str], list[str]]:
    if lang == "el":
        return [h for h, _ in GREEK], [r for _, r in GREEK]
    if not SHARED.is_dir():
        pytest.skip(f"the shared data folder {SHARED} is not there")
    return _gate_xe() if lang == "en" else _gate({"fr": "FR", "it": "IT"}[lang])


def sacrebleu_cli(tmp_path: Path, hyps, refs, *args: str) -> list[dict]:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    out = subprocess.run([SACREBLEU, str(ref), "-i", str(hyp), "-w", "6", *args], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out) if out.lstrip().startswith(("[", "{")) else out


@pytest.mark.parametrize("lang", ["fr", "it", "el", "en"])
def test_corpus_scores_equal_the_command_line_with_the_configured_tokenizer(tmp_path, lang):
    hyps, refs = pairs_for(lang)
    assert len(hyps) == len(refs) > 5
    tok = bleu_tokenizer(lang, CONFIG["scoring"]["tokenize"])
    assert tok == CONFIG["scoring"]["tokenize"][lang]
    cli = {m["name"]: m for m in sacrebleu_cli(tmp_path, hyps, refs, "-m", "bleu", "chrf", "ter",
                                               "-tok", tok)}
    for metric, name in (("bleu", "BLEU"), ("chrf", "chrF2"), ("ter", "TER")):
        ours = metrics.corpus_score(metric, hyps, refs,
                                    with_tokenizer(metric, CONFIG["scoring"].get(metric), lang,
                                                   CONFIG["scoring"]["tokenize"]))
        assert ours.score == pytest.approx(cli[name]["score"], abs=1e-6), (lang, metric)
        assert ours.signature == cli[name]["signature"], (lang, metric)
    assert 0 < cli["BLEU"]["score"] < 100 and cli["TER"]["score"] > 0


def test_ter_sentence_scores_equal_the_command_line(tmp_path):
    hyps, refs = pairs_for("el")
    lines = sacrebleu_cli(tmp_path, hyps, refs, "-m", "ter", "--sentence-level").splitlines()
    expected = [float(line.split(" = ")[1].split()[0]) for line in lines]
    scores, signature = metrics.sentence_scores("ter", hyps, refs)
    assert scores == pytest.approx(expected, abs=1e-6)
    assert signature == lines[0].split(" = ")[0].split("|", 1)[1]


def test_tokenizer_table():
    assert bleu_tokenizer("fr") == bleu_tokenizer("el") == bleu_tokenizer(None) == "13a"
    assert bleu_tokenizer("zh-CN") == "zh" and bleu_tokenizer("ja") == "ja-mecab"
    assert bleu_tokenizer("fr", {"fr": "intl"}) == "intl"
    assert bleu_tokenizer("de", {"default": "none"}) == "none"
    # an explicit bleu.tokenize wins over the table; other metrics take no tokenizer
    assert with_tokenizer("bleu", {"tokenize": "char"}, "fr", {"fr": "intl"})["tokenize"] == "char"
    assert with_tokenizer("chrf", {}, "zh") == {}


def test_score_frame_takes_the_tokenizer_of_the_target_language():
    frame = pd.DataFrame({"item_id": ["a", "b"], "hypothesis": ["le chat.", "un chien!"],
                          "reference": ["le chat !", "un chien."], "tgt_lang": "fr"})
    _, summary = score_frame(frame, ["bleu", "ter"], None, (), {"fr": "intl"})
    assert "tok:intl" in summary["bleu"]["signature"]
    assert summary["ter"]["signature"].startswith("nrefs:1|case:lc|tok:tercom")
    with pytest.raises(GenderMTError, match="several target languages"):
        score_frame(frame.assign(tgt_lang=["fr", "it"]), ["bleu"], None)


# ------------------------------------------------------------------- the authors' NLTK BLEU
CASES = [
    ("the cat sat on the mat", "the cat sat on the mat"),
    ("the cat", "the cat sat on the mat"),
    ("le chat est sur le tapis rouge", "le chat dort sur le tapis"),
    ("L' infirmière est arrivée .", "L' infirmier est arrivé ."),
    ("chat", "le chat"),
    ("chien", "le chat"),
    ("", "le chat"),
    ("a b c d e f g h", "a b x d e y g h i j k"),
    ("Iel est un.e infirmier.ère dévoué.e", "Iel est un.e infirmier.ère très dévoué.e"),
    ("word word word word", "word"),
]


def hand_computed(hyp: str, ref: str) -> float:
    """Worked by hand for the cases above (see nltk_bleu's docstring for the rules)."""
    ln = math.log
    table = {
        CASES[0]: 100.0,
        # p1 = 2/2, p2 = 1/1, p3 and p4 zero: 1/(2*5/ln 2), 1/(4*5/ln 2); BP = exp(1 - 6/2)
        CASES[1]: 100 * math.exp(1 - 3) * math.exp((ln(ln(2) / 10) + ln(ln(2) / 20)) / 4),
        CASES[4]: 100 * math.exp(1 - 2),  # one token: p2..p4 stay 0 and are left out
        CASES[5]: 0.0,  # no unigram match
        CASES[6]: 0.0,
    }
    return table[(hyp, ref)]


@pytest.mark.parametrize("hyp, ref", CASES)
def test_bleu_nltk_m4_equals_nltk(hyp, ref):
    ours = nltk_bleu.sentence_bleu_m4(hyp, ref)
    try:
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    except ImportError:
        try:
            expected = hand_computed(hyp, ref)
        except KeyError:
            pytest.skip("NLTK is not installed and this case has no hand-computed value")
    else:
        expected = 100 * sentence_bleu([ref.split()], hyp.split(),
                                       smoothing_function=SmoothingFunction().method4)
    assert ours == pytest.approx(expected, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("case", range(5))
def test_bleu_nltk_m4_hand_computed(case):
    hyp, ref = [CASES[i] for i in (0, 1, 4, 5, 6)][case]
    assert nltk_bleu.sentence_bleu_m4(hyp, ref) == pytest.approx(hand_computed(hyp, ref),
                                                                 rel=1e-12, abs=1e-12)


def test_bleu_nltk_m4_through_the_metric_interface():
    hyps, refs = [h for h, _ in CASES], [r for _, r in CASES]
    scores, signature = metrics.sentence_scores("bleu_nltk_m4", hyps, refs)
    corpus = metrics.corpus_score("bleu_nltk_m4", hyps, refs)
    assert corpus.score == pytest.approx(sum(scores) / len(scores))
    assert signature.startswith("bleu_nltk_m4|") and "tok:whitespace" in signature
    assert corpus.signature.endswith("corpus:mean")
    with pytest.raises(GenderMTError, match="unknown metric 'meteor'"):
        metrics.corpus_score("meteor", hyps, refs)


def test_score_frame_leaves_missing_group_values_out():
    # as pandas' groupby: NaN and a nullable column's NA are no group of their own
    frame = pd.DataFrame({"item_id": ["a", "b", "c", "d"],
                          "hypothesis": ["le chat.", "un chien!", "la souris", "un oiseau"],
                          "reference": ["le chat !", "un chien.", "la souris", "un oiseau"],
                          "gender": ["f", None, "m", "f"],
                          "level": pd.array([1, pd.NA, 2, 1], dtype="Int64")})
    scores, summary = score_frame(frame, ["chrf"], None, ["gender", "level"])
    assert summary["chrf"]["n"] == {"all": 4, "f": 2, "m": 1, "1": 2, "2": 1}
    assert scores["item_id"].tolist() == ["a", "b", "c", "d"]
    assert list(scores.columns) == ["item_id", "metric", "score", "signature"]
