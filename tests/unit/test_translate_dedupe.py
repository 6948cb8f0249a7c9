"""Identical requests are sent once — but only to systems whose output is a function of
the request; a lookup such as the oracle answers each item on its own."""

from gendermt.data.io import read_jsonl, write_jsonl
from gendermt.translation.runner import translate_file


def test_items_sharing_a_source_keep_their_own_oracle_output(tmp_path, sample_data):
    assert sample_data["source"].duplicated().any()  # the variants share their source
    data = tmp_path / "data.parquet"
    sample_data.to_parquet(data)
    inputs = tmp_path / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": r.item_id, "prompt": "baseline", "source": r.source,
                          "messages": []} for r in sample_data.itertuples()))
    out = tmp_path / "t" / "baseline.jsonl"
    translate_file(inputs, data, "oracle", {"backend": "reference-oracle",
                                            "reference": "reference"},
                   out, tmp_path / "t" / "baseline.meta.json", cache_dir=tmp_path / "cache")
    assert [r["raw"] for r in read_jsonl(out)] == list(sample_data["reference"])
    assert not (tmp_path / "cache").exists()  # lookups are not cached
