"""Tests for the GAMBIT adapter loader (``gendermt.benchmarks.gambit.data``) and the shipped
GAMBIT resources: the English sample, the stored translations of the three offline systems,
and the builder that writes them (byte-identical on every run)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from gendermt.benchmarks.gambit.data import TEXT_TYPES, build, isco_code_of, load, text_type_of
from gendermt.core.errors import DatasetError, GenderMTError, MissingResourceError
from gendermt.translation.backends.stored import read_table

ROOT = Path(__file__).resolve().parents[3]
RES = ROOT / "resources" / "gambit"
SAMPLE = RES / "sample" / "gambit-sample.jsonl"
SYSTEMS = ("masculine-default", "stereotyped", "mixed")
LANGS = ("fr", "el")
CODES = ["2221", "2222", "2211", "2612", "7111", "8111", "2330", "2651", "5151", "3343",
         "2512", "1120", "2341", "5141", "7411", "2611", "5120", "8322", "2635", "5311"]
STEREOTYPED_FEMININE = {"2221", "2222", "5151", "3343", "5141", "5311", "2341"}


def _builder():
    spec = importlib.util.spec_from_file_location("gambit_build_sample", RES / "build_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    return load({"path": str(SAMPLE)})


@pytest.fixture()
def records() -> list[dict]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


# --------------------------------------------------------------------------- the sample
def test_sample_is_the_twenty_occupations_in_the_five_text_types(sample):
    assert list(sample.columns) == ["item_id", "source", "src_lang", "tgt_lang", "text_type",
                                    "isco", "isco_title"]
    assert len(sample) == 100
    assert sample["item_id"].tolist() == [f"gambit-{i:05d}" for i in range(100)]
    assert sorted(sample["isco"].unique()) == sorted(CODES)
    assert sample["text_type"].value_counts().to_dict() == {t: 20 for t in TEXT_TYPES}
    assert sample.groupby("isco")["text_type"].nunique().eq(5).all()
    assert (sample["src_lang"] == "en").all() and (sample["tgt_lang"] == "").all()
    assert sample.loc[sample["isco"] == "2221", "isco_title"].unique().tolist() == [
        "Nursing Professionals"]


def test_sample_texts_are_short_varied_and_gender_ambiguous(sample, records):
    gendered = re.compile(r"\b(he|she|him|his|her|hers|himself|herself|mr|mrs|ms|man|woman|"
                          r"men|women|boy|girl|male|female|husband|wife)\b", re.I)
    for row in records:
        text = row["text"]
        assert not gendered.search(text), text
        assert row["occupation"] in text, row
        sentences = len(re.findall(r"[.!?](\"|$|\s)", text))
        assert 1 <= sentences <= 4, text  # 1-3 sentences; conversations: two quoted turns
        if row["category"] == "short_conversation":
            assert text.count('"') == 4, text
    assert sample["source"].nunique() == 100
    for text_type in TEXT_TYPES:  # two templates per text type
        texts = sample.loc[sample["text_type"] == text_type]
        openings = {s.split()[0] + " " + s.split()[1] for s in texts["source"]}
        assert len(openings) >= 2, text_type


# --------------------------------------------------------------------------- stored outputs
@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("lang", LANGS)
def test_stored_translations_cover_every_sample_item(sample, system, lang):
    path = RES / "translations" / system / f"{lang}.tsv"
    outputs = read_table(path, "hypothesis", sample["item_id"].tolist())
    assert len(outputs) == 100
    assert all(text.strip() and "{" not in text and "[" not in text for text in outputs.values())
    table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    assert table["item_id"].tolist() == sample["item_id"].tolist()  # item order


def _gender_table(system: str, lang: str) -> pd.DataFrame:
    table = pd.read_csv(RES / "translations" / system / f"{lang}.tsv", sep="\t", dtype=str,
                        keep_default_na=False)
    data = load({"path": str(SAMPLE)})
    return table.merge(data, on="item_id")


def test_systems_assign_the_documented_genders():
    for lang in LANGS:
        masc = _gender_table("masculine-default", lang)
        assert set(masc["gender"]) == {"Masculine"}
        stereo = _gender_table("stereotyped", lang)
        expected = stereo["isco"].map(lambda c: "Feminine" if c in STEREOTYPED_FEMININE
                                      else "Masculine")
        assert stereo["gender"].tolist() == expected.tolist()
        mixed = _gender_table("mixed", lang)
        gendered = mixed[mixed["gender"] != "Not Clear"]
        share = gendered.groupby("isco")["gender"].apply(lambda g: (g == "Feminine").mean())
        assert (share.between(0.3, 0.7)).sum() >= 5  # several balanced occupations
        assert (share == 0).sum() >= 5 and (share == 1).sum() >= 5
        not_clear = mixed[mixed["gender"] == "Not Clear"]
        if lang == "fr":
            assert len(not_clear) == 4
            assert set(not_clear["isco"]) == {"2651", "5311"}
            for text in not_clear["hypothesis"]:
                assert re.search(r"\bl'(artiste|auxiliaire de puériculture)\b", text), text
                assert not re.search(r"\b(le|la|un|une|ce|cet|cette|au|du)\s+"
                                     r"(artiste|auxiliaire)\b", text, re.I), text
        else:
            assert not_clear.empty


FR_FORMS = {  # code: (masculine, feminine) as in the spec's table
    "2221": ("infirmier", "infirmière"), "2222": ("maïeuticien", "sage-femme"),
    "2211": ("médecin", "médecin"), "2612": ("juge", "juge"),
    "7111": ("constructeur", "constructrice"), "8111": ("mineur", "mineuse"),
    "2330": ("professeur", "professeure"), "2651": ("peintre", "peintre"),
    "5151": ("gouvernant", "gouvernante"), "3343": ("secrétaire", "secrétaire"),
    "2512": ("développeur", "développeuse"), "1120": ("directeur général", "directrice générale"),
    "2341": ("instituteur", "institutrice"), "5141": ("coiffeur", "coiffeuse"),
    "7411": ("électricien", "électricienne"), "2611": ("avocat", "avocate"),
    "5120": ("cuisinier", "cuisinière"), "8322": ("chauffeur", "chauffeuse"),
    "2635": ("assistant social", "assistante sociale"), "5311": ("puériculteur", "puéricultrice"),
}
EL_NOUNS = {  # code: masculine and feminine nominative/accusative forms
    "2221": "νοσηλευτής νοσηλευτή | νοσηλεύτρια", "2222": "μαιευτής μαιευτή | μαία",
    "2211": "γιατρός γιατρό | γιατρός γιατρό", "2612": "δικαστής δικαστή | δικαστής δικαστή",
    "7111": "οικοδόμος οικοδόμο | οικοδόμος οικοδόμο",
    "8111": "ανθρακωρύχος ανθρακωρύχο | ανθρακωρύχος ανθρακωρύχο",
    "2330": "καθηγητής καθηγητή | καθηγήτρια", "2651": "ζωγράφος ζωγράφο | ζωγράφος ζωγράφο",
    "5151": "επόπτης επόπτη | επόπτρια", "3343": "γραμματέας γραμματέα | γραμματέας γραμματέα",
    "2512": "προγραμματιστής προγραμματιστή | προγραμματίστρια",
    "1120": "γενικός γενικό | γενική", "2341": "δάσκαλος δάσκαλο | δασκάλα",
    "5141": "κομμωτής κομμωτή | κομμώτρια", "7411": "ηλεκτρολόγος ηλεκτρολόγο | ηλεκτρολόγος "
    "ηλεκτρολόγο", "2611": "δικηγόρος δικηγόρο | δικηγόρος δικηγόρο",
    "5120": "μάγειρας μάγειρα | μαγείρισσα", "8322": "οδηγός οδηγό | οδηγός οδηγό",
    "2635": "κοινωνικός κοινωνικό | κοινωνική", "5311": "βρεφοκόμος βρεφοκόμο | βρεφοκόμος "
    "βρεφοκόμο",
}
EL_ARTICLES = {"Masculine": r"(ο|τον|ένας|έναν)(\s+νέος|\s+νέο)?",
               "Feminine": r"(η|την|τη|μια)(\s+νέα)?"}
FR_DETERMINERS = {"Masculine": r"(le|un|au|du|ce|cet|le nouveau|le nouvel|d'un)",
                  "Feminine": r"(la|une|à la|de la|cette|la nouvelle|d'une)"}


def _mentions_fr(text: str, noun: str) -> list[str]:
    """The determiner (or the agreeing participle after 'Notre N,') of each mention."""
    found = re.findall(r"(\w+(?: nouvel?l?e?| nouveau)?|l'|d'\w+)\s*" + re.escape(noun)
                       + r"(?=\W)", text, re.I)
    return found


@pytest.mark.parametrize("system", SYSTEMS)
def test_french_mentions_agree_with_the_assigned_gender(system):
    table = _gender_table(system, "fr")
    for row in table.itertuples():
        if row.gender == "Not Clear":
            continue
        masc, fem = FR_FORMS[row.isco]
        noun = masc if row.gender == "Masculine" else fem
        other = fem if row.gender == "Masculine" else masc
        text = row.hypothesis
        assert re.search(r"(?<!\w)" + re.escape(noun) + r"(?!\w)", text), (noun, text)
        if noun != other:  # a gendered noun form: the other form must not appear
            assert not re.search(r"(?<!\w)" + re.escape(other) + r"(?!\w)", text), text
        else:  # an epicene noun: every mention has an agreeing determiner or participle
            pattern = re.compile(r"(?:(\w+(?: nouvelle| nouvel| nouveau)?|d'une|d'un)\s+"
                                 + re.escape(noun) + r"(,\s+\w+)?)", re.I)
            for determiner, participle in pattern.findall(text):
                if determiner.lower() == "notre":
                    ok = participle.endswith("e") == (row.gender == "Feminine")
                else:
                    ok = re.fullmatch(FR_DETERMINERS[row.gender], determiner, re.I)
                assert ok, (determiner, participle, text)
        if row.gender == "Feminine":
            for ending in ("arrivé ", "blessé ", "organisé "):
                assert ending not in text, text


@pytest.mark.parametrize("system", SYSTEMS)
def test_greek_mentions_carry_the_assigned_gender(system):
    table = _gender_table(system, "el")
    for row in table.itertuples():
        masc, fem = (part.split() for part in EL_NOUNS[row.isco].split("|"))
        forms = masc if row.gender == "Masculine" else fem
        other = "Feminine" if row.gender == "Masculine" else "Masculine"
        nouns = "|".join(map(re.escape, set(masc + fem)))
        mentions = re.findall(r"(\w+(?:\s+νέος|\s+νέο|\s+νέα)?)\s+(" + nouns + r")(?!\w)",
                              row.hypothesis)
        assert mentions, row.hypothesis
        for article, noun in mentions:
            assert re.fullmatch(EL_ARTICLES[row.gender], article, re.I), (article, noun,
                                                                          row.hypothesis)
            assert not re.fullmatch(EL_ARTICLES[other], article, re.I)
            assert noun in forms, (noun, row.hypothesis)


# --------------------------------------------------------------------------- the builder
def test_builder_rewrites_the_shipped_files_byte_for_byte(tmp_path):
    builder = _builder()
    digests = []
    for run in ("a", "b"):
        builder.HERE = tmp_path / run
        builder.main()
        files = sorted(p.relative_to(tmp_path / run) for p in (tmp_path / run).rglob("*")
                       if p.is_file())
        digests.append({str(f): hashlib.sha256((tmp_path / run / f).read_bytes()).hexdigest()
                        for f in files})
    assert digests[0] == digests[1]
    assert len(digests[0]) == 13
    for name, digest in digests[0].items():
        assert hashlib.sha256((RES / name).read_bytes()).hexdigest() == digest, (
            f"{name} differs from build_sample.py's output: rerun the builder")


# --------------------------------------------------------------------------- the adapter
def test_build_writes_parquet_and_provenance(tmp_path):
    out, prov = tmp_path / "data.parquet", tmp_path / "data.json"
    build({"path": str(SAMPLE)}, out, prov)
    frame = pd.read_parquet(out)
    assert len(frame) == 100 and frame["isco"].map(type).eq(str).all()
    info = json.loads(prov.read_text())
    assert info["items"] == 100 and info["format"] == "jsonl" and info["isco_codes"] == 20
    assert info["files"]["data"]["sha256"] == hashlib.sha256(SAMPLE.read_bytes()).hexdigest()
    assert info["columns"] == {"text": "text", "text_type": "category", "isco": "isco_code",
                               "title": "isco_title", "item_id": "id"}
    assert info["text_type"] == {t: 20 for t in sorted(TEXT_TYPES)}


def _rows() -> list[dict]:
    return [
        {"Text": "The miner came home late.", "Category": "Short Stories",
         "ISCO 08 Code": "8111", "Title EN": "Miners and Quarriers"},
        {"Text": "The officer gave a short speech.", "Category": "brief-news-report",
         "ISCO 08 Code": "0110", "Title EN": "Commissioned Armed Forces Officers"},
    ]


def test_semicolon_csv_with_published_looking_names(tmp_path):
    path = tmp_path / "gambit.csv"
    pd.DataFrame(_rows()).to_csv(path, sep=";", index=False)
    frame = load({"path": str(path)})
    assert frame["item_id"].tolist() == ["gambit-00000", "gambit-00001"]
    assert frame["text_type"].tolist() == ["short story", "brief news report"]
    assert frame["isco"].tolist() == ["8111", "0110"]
    assert frame["isco_title"].tolist() == ["Miners and Quarriers",
                                            "Commissioned Armed Forces Officers"]


@pytest.mark.parametrize("fmt", ["tsv", "json", "json-object", "parquet", "csv-comma"])
def test_other_formats(tmp_path, fmt):
    rows = _rows()
    if fmt == "tsv":
        path = tmp_path / "g.tsv"
        pd.DataFrame(rows).to_csv(path, sep="\t", index=False)
    elif fmt == "json":
        path = tmp_path / "g.json"
        path.write_text(json.dumps(rows))
    elif fmt == "json-object":
        path = tmp_path / "g.json"
        path.write_text(json.dumps({"data": rows}))
    elif fmt == "parquet":  # codes as integers: the armed forces' leading zero comes back
        path = tmp_path / "g.parquet"
        frame = pd.DataFrame(rows)
        frame["ISCO 08 Code"] = frame["ISCO 08 Code"].astype(int)
        frame.to_parquet(path)
    else:
        path = tmp_path / "g.csv"
        pd.DataFrame(rows).to_csv(path, index=False)
    frame = load({"path": str(path)})
    assert frame["isco"].tolist() == ["8111", "0110"]
    assert frame["text_type"].tolist() == ["short story", "brief news report"]


def test_explicit_columns_and_format(tmp_path):
    path = tmp_path / "g.data"
    pd.DataFrame([{"k": "x1", "body": "The judge smiled.", "kind": "statement", "occ": 2612,
                   "name": "Judges"}]).to_csv(path, index=False)
    source = {"path": str(path), "format": "csv",
              "columns": {"text": "body", "text_type": "kind", "isco": "occ", "title": "name",
                          "item_id": "k"}}
    frame = load(source)
    assert frame.iloc[0].to_dict() == {
        "item_id": "x1", "source": "The judge smiled.", "src_lang": "en", "tgt_lang": "",
        "text_type": "short statement", "isco": "2612", "isco_title": "Judges"}
    with pytest.raises(DatasetError, match="cannot tell the format"):
        load({"path": str(path)})
    with pytest.raises(GenderMTError, match="format 'xlsx'"):
        load({"path": str(path), "format": "xlsx"})
    with pytest.raises(DatasetError, match="no column 'body2'"):
        load({**source, "columns": {**source["columns"], "text": "body2"}})
    with pytest.raises(GenderMTError, match="unknown key"):
        load({**source, "columns": {"sentence": "body"}})


def test_title_is_optional(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps({"text": "A cook sang.", "type": "story", "isco": "5120"}) + "\n")
    assert load({"path": str(path)})["isco_title"].tolist() == [""]


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(("change", "column", "row", "message"), [
    ({"category": "poem"}, "category", 2, "unknown text type 'poem'"),
    ({"isco_code": "221"}, "isco_code", 2, "'221' is not a 4-digit"),
    ({"isco_code": "22a1"}, "isco_code", 2, "not a 4-digit"),
    ({"text": "  "}, "text", 2, "empty or missing text"),
    ({"id": "gambit-00000"}, "id", 2, "duplicated id 'gambit-00000' \\(first seen in row 1\\)"),
    ({"id": ""}, "id", 2, "empty id"),
])
def test_malformed_rows_are_named(tmp_path, records, change, column, row, message):
    rows = records[:3]
    rows[1] = {**rows[1], **change}
    path = _write_jsonl(tmp_path / "bad.jsonl", rows)
    with pytest.raises(DatasetError, match=message) as err:
        load({"path": str(path)})
    assert err.value.row == row and err.value.column == column
    assert str(path) in str(err.value)


@pytest.mark.parametrize(("code", "message"), [
    ("9999", "ISCO-08 code '9999' is not a unit group of"),
    ("\u0662\u0662\u0662\u0661", "is not a 4-digit"),  # Arabic-Indic ٢٢٢١
])
def test_codes_outside_the_isco_hierarchy_stop_the_data_stage(tmp_path, records, code,
                                                               message):
    rows = [dict(r) for r in records[:3]]
    rows[2]["isco_code"] = code
    path = _write_jsonl(tmp_path / "bad.jsonl", rows)
    isco = RES / "isco08-excerpt.csv"
    with pytest.raises(DatasetError, match=message) as err:
        build({"path": str(path)}, tmp_path / "d.parquet", tmp_path / "d.json", isco=isco)
    assert err.value.row == 3 and err.value.column == "isco_code"
    assert not (tmp_path / "d.parquet").exists()
    with pytest.raises(DatasetError, match=message):
        load({"path": str(path)}, isco=isco)
    assert len(load({"path": str(SAMPLE)}, isco=isco)) == 100


def test_missing_required_column_is_named(tmp_path, records):
    rows = [{k: v for k, v in r.items() if k != "isco_code"} for r in records[:2]]
    path = _write_jsonl(tmp_path / "bad.jsonl", rows)
    with pytest.raises(DatasetError, match="no isco column") as err:
        load({"path": str(path)})
    assert err.value.column == "isco"


def test_unreadable_and_missing_files(tmp_path):
    with pytest.raises(MissingResourceError):
        load({"path": str(tmp_path / "nope.jsonl")})
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "x"}\n{not json\n')
    with pytest.raises(DatasetError, match="not JSON") as err:
        load({"path": str(bad)})
    assert err.value.row == 2
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(DatasetError, match="empty"):
        load({"path": str(empty)})
    header_only = tmp_path / "header.csv"
    header_only.write_text("text,category,isco\n")
    with pytest.raises(DatasetError, match="no rows"):
        load({"path": str(header_only)})
    with pytest.raises(GenderMTError, match="needs a `path`"):
        load({})


@pytest.mark.parametrize(("value", "expected"), [
    ("short story", "short story"), ("short_story", "short story"),
    ("Short Stories", "short story"), ("brief_news_report", "brief news report"),
    ("news report", "brief news report"), ("SHORT-STATEMENT", "short statement"),
    ("conversation", "short conversation"), ("short presentations", "short presentation"),
    ("essay", None), (3, None),
])
def test_text_type_spellings(value, expected):
    assert text_type_of(value) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("2221", "2221"), (" 2221 ", "2221"), (2221, "2221"), (110, "0110"), (2221.0, "2221"),
    ("0110", "0110"), ("110", None), (22.5, None), ("22210", None), (None, None),
    (True, None), (float("nan"), None),
])
def test_isco_codes(value, expected):
    assert isco_code_of(value) == expected


# --------------------------------------------------------------------------- validation sets
@pytest.mark.parametrize("lang", LANGS)
def test_validation_sets(lang):
    from gendermt.benchmarks.gambit.isco import load_isco

    isco = load_isco(RES / "isco08-excerpt.csv").set_index("code")
    table = pd.read_csv(RES / "validation" / f"{lang}.csv", dtype=str, keep_default_na=False)
    assert list(table.columns) == ["text_id", "text", "isco", "title", "description", "gender"]
    assert len(table) == 48 and table["text_id"].is_unique
    assert table["text_id"].str.fullmatch(lang + r"-val-\d{3}").all()
    assert set(table["gender"]) == {"Masculine", "Feminine", "Not Clear"}
    assert table["gender"].value_counts().to_dict() == {"Feminine": 23, "Masculine": 21,
                                                       "Not Clear": 4}
    for row in table.itertuples():
        assert row.title == isco.loc[row.isco, "title"]
        assert row.description == isco.loc[row.isco, "definition"]
    per_code = table.iloc[:40].groupby("isco")["gender"].apply(set)
    assert len(per_code) == 20 and per_code.eq({"Masculine", "Feminine"}).all()
    forms = FR_FORMS if lang == "fr" else {c: v.replace("|", " ").split() for c, v in
                                           EL_NOUNS.items()}
    for row in table.iloc[:40].itertuples():
        if lang == "fr":
            noun = forms[row.isco][0 if row.gender == "Masculine" else 1]
            assert noun in row.text, row
        else:
            assert any(f in row.text for f in forms[row.isco]), row


def test_stored_backend_reads_the_shipped_translations(sample):
    from gendermt.translation.backends import Request, build_backend

    settings = {"backend": "stored", "format": "table", "column": "hypothesis",
                "path": str(RES / "translations" / "stereotyped" / "{prompt}.tsv")}
    backend = build_backend(settings, sample, {"benchmark": "gambit", "prompt": "el"})
    first = sample.iloc[0]
    [output] = backend.translate([Request(item_id=first["item_id"], source=first["source"])])
    assert output.startswith("Η νοσηλεύτρια έφτασε νωρίς")
