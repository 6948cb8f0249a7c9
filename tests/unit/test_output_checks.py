"""Every benchmark's echo and wrong-language checks (gendermt.scoring.output_checks): per output,
per
run (tables/output_checks.csv), and on the scorecard, where a run of echoes is marked low
quality instead of scoring MT-GenEval's accuracy 100 with gap 0."""

import math

import pandas as pd
import pytest

from gendermt.benchmarks.neogate import checks as neogate_checks
from gendermt.data.io import write_jsonl
from gendermt.scorecard.build import build, to_records
from gendermt.scoring.output_checks import check_counts, check_output, check_run, instruction_of

INSTRUCTION = ("Translate the following sentence from English to French. Respond with the "
               "translation only, nothing else.")
SOURCE = "The nurse stayed late to check every patient's medication."
FRENCH = "L'infirmière est restée tard pour vérifier les médicaments de chaque patient."


def _prompt(source=SOURCE):
    return instruction_of([{"role": "user", "content": f"{INSTRUCTION} '{source}'"}], source)


@pytest.mark.parametrize("output, tgt, expected", [
    (INSTRUCTION, "fr", "echo"),
    ("Translate the following sentence from English to French.", "de", "echo"),
    (SOURCE, "fr", "wrong_language"),          # a copied source
    (FRENCH, "fr", "ok"),
    ("Die Krankenschwester ist lange geblieben, um die Medikamente zu prüfen.", "de", "ok"),
    ("The nurse is tired and the doctor is here.", "es", "wrong_language"),
    ("La enfermera se quedó tarde para revisar la medicación de cada paciente.", "es", "ok"),
    # a target without a word list: the echo check only
    (SOURCE, "el", "ok"),
    ("", "fr", "ok"),
])
def test_check_output_per_language(output, tgt, expected):
    assert check_output(output, _prompt(), tgt, "en") == expected


def test_neogate_keeps_its_results():
    """Neo-GATE's checks are the generic ones with Italian as the target."""
    prompt = _prompt()
    for text in (INSTRUCTION, SOURCE, "L'infermier* è stanc* e il medico è qui.",
                 "The nurse is tired and the doctor is here."):
        assert neogate_checks.check_output(text, prompt) == check_output(text, prompt, "it",
                                                                         "en")
    assert neogate_checks.check_output(SOURCE, prompt) == "wrong_language"


def _run(tmp_path, name, outputs, prompt="baseline", tgt="fr"):
    inputs = tmp_path / "inputs" / f"{prompt}.jsonl"
    write_jsonl(inputs, [{"item_id": f"i{k}", "src_lang": "en", "tgt_lang": tgt,
                          "source": SOURCE,
                          "messages": [{"role": "user", "content": f"{INSTRUCTION} '{SOURCE}'"}]}
                         for k in range(len(outputs))])
    path = tmp_path / "translations" / name / f"{prompt}.jsonl"
    write_jsonl(path, [{"item_id": f"i{k}", "raw": o, "hypothesis": o}
                       for k, o in enumerate(outputs)])
    return {"system": name, "prompt": prompt, "path": str(path), "inputs": str(inputs)}


def test_check_counts_per_run(tmp_path):
    table = check_counts([_run(tmp_path, "good", [FRENCH] * 4),
                          _run(tmp_path, "echoer", [INSTRUCTION] * 3 + [FRENCH]),
                          _run(tmp_path, "copier", [SOURCE, SOURCE, FRENCH, INSTRUCTION])])
    rows = table.set_index("system")
    assert list(table.columns) == ["system", "prompt", "items", "ok", "echo", "wrong_language",
                                   "clean_share"]
    assert rows.loc["good", ["items", "ok", "echo", "wrong_language"]].tolist() == [4, 4, 0, 0]
    assert rows.loc["echoer", "echo"] == 3 and rows.loc["echoer", "clean_share"] == 0.25
    assert rows.loc["copier", ["ok", "echo", "wrong_language"]].tolist() == [1, 1, 2]


def test_runs_sharing_their_requests_read_them_once(tmp_path, monkeypatch):
    """check_counts prepares a requests file once for all the runs of its prompt, with the
    counts check_run gives each run alone."""
    from gendermt.scoring import output_checks

    runs = [_run(tmp_path, "good", [FRENCH] * 4),
            _run(tmp_path, "echoer", [INSTRUCTION] * 3 + [FRENCH])]
    alone = [check_run(r["path"], r["inputs"]) for r in runs]
    read = []
    real = output_checks.read_jsonl
    monkeypatch.setattr(output_checks, "read_jsonl", lambda p: read.append(str(p)) or real(p))
    table = check_counts(runs)
    assert read.count(runs[0]["inputs"]) == 1
    assert [{c: int(row[c]) for c in alone[0]} for _, row in table.iterrows()] == alone


def test_an_echoing_system_is_marked_low_quality_on_mt_geneval(tmp_path):
    """The echoes have no gendered word: MT-GenEval's accuracy is 100 and its gap 0. The
    output checks mark them, the scorecard says low quality and does not rank them."""
    res = tmp_path / "results"
    summary = pd.DataFrame({
        "system": ["translator", "echoer"], "prompt": ["baseline", "baseline"],
        "lang": ["fr", "fr"], "counterfactual_accuracy": [0.6, 1.0],
        "accuracy_masculine": [0.8, 1.0], "accuracy_feminine": [0.5, 1.0],
        "accuracy_gap": [0.3, 0.0], "contextual_accuracy": [0.7, 1.0],
        "bleu": [30.0, 12.0], "correct_word_rate": [0.8, 0.0],
        "contextual_correct_word_rate": [0.75, 0.0]})
    (res / "mt-geneval" / "tables").mkdir(parents=True)
    summary.to_csv(res / "mt-geneval" / "tables" / "summary.csv", index=False)
    runs = [_run(tmp_path / "m", "translator", [FRENCH] * 10),
            _run(tmp_path / "m", "echoer", [INSTRUCTION] * 10)]
    check_counts(runs).to_csv(res / "mt-geneval" / "tables" / "output_checks.csv", index=False)

    card = build(res)
    gap = next(f for f in card.figures if f.key == "gap_fr")
    assert "clean_share" in gap.quality_keys
    assert card.below_floor("echoer", gap) and not card.below_floor("translator", gap)
    assert card.cell("echoer", next(f for f in card.figures if f.key == "clean_share")
                     ).value == 0
    records = {r["system"]: r["mt-geneval"] for r in to_records(card)}
    assert records["echoer"]["low_quality"] == ["clean_share"]
    assert records["translator"]["low_quality"] == []
    assert records["echoer"]["correct_word_rate_fr"] == 0
    from gendermt.scorecard.page import frame_and_styles

    frame, styles = frame_and_styles(card)
    j = list(frame.columns).index("counterfactual gap (fr)")
    i = list(frame["system"]).index("echoer")
    assert "(low quality)" in frame.iloc[i, j] and styles[i][j] is None


def test_without_an_output_checks_table_nothing_is_added(tmp_path):
    res = tmp_path / "results"
    (res / "gate" / "tables").mkdir(parents=True)
    pd.DataFrame({"system": ["a"], "prompt": ["rewrite"], "category": ["overall"],
                  "count": [2], "matches": [1]}).to_csv(res / "gate" / "tables" / "prf.csv",
                                                        index=False)
    card = build(res)
    assert [f.key for f in card.figures] == ["accuracy"]
    assert not math.isnan(card.cells[("a", "gate", "accuracy")].value)


def test_quality_figures_are_not_marked_and_prompts_are_named_once(tmp_path):
    """FairTranslate's chrF (all) is a quality figure like BLEU (all): a copy's low clean
    share marks its gaps, not its quality; Neo-GATE's clean share names each prompt once."""
    res = tmp_path / "results"
    rows = []
    for system, prompt, bleu in (("copy", "baseline", 2.0), ("good", "baseline", 30.0)):
        for gender in ("male", "female", "inclusive"):
            rows += [{"metric": m, "system": system, "prompt": prompt, "gender": gender,
                      "n": 3, "mean": v} for m, v in (("bleu", bleu), ("chrf", 3 * bleu))]
    (res / "fairtranslate" / "tables").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(res / "fairtranslate" / "tables" / "by_gender.csv", index=False)
    runs = [_run(tmp_path / "f", "copy", [SOURCE] * 4), _run(tmp_path / "f", "good", [FRENCH] * 4)]
    check_counts(runs).to_csv(res / "fairtranslate" / "tables" / "output_checks.csv",
                              index=False)
    (res / "neogate" / "tables").mkdir(parents=True)
    pd.DataFrame({"system": ["good", "good"], "paradigm": ["schwa", "asterisk"],
                  "prompt": ["zeroshot-schwa", "zeroshot-asterisk"], "cwa": [10.0, 20.0],
                  "misgeneration": [1.0, 2.0]}).to_csv(res / "neogate" / "tables" /
                                                      "zeroshot.csv", index=False)
    runs = [_run(tmp_path / "n", "good", ["L'infermier* è stanc*."] * 2, p, "it")
            for p in ("zeroshot-schwa", "zeroshot-asterisk")]
    check_counts(runs).to_csv(res / "neogate" / "tables" / "output_checks.csv", index=False)
    card = build(res)
    figs = {(f.benchmark, f.key): f for f in card.figures}
    assert not card.below_floor("copy", figs[("fairtranslate", "chrf_all")])
    assert card.below_floor("copy", figs[("fairtranslate", "bleu_male_minus_inclusive")])
    assert card.prompts("good", "neogate") == ["zeroshot-schwa", "zeroshot-asterisk"]
    assert figs[("neogate", "clean_share")].run == "zeroshot-schwa, zeroshot-asterisk"
