"""Run in the COMET environment (.venv-comet): save a tiny random-weight BERT with a vocabulary
made from a few sentences, so that BERTScore can run offline; then score HYP against REF with
bert_score directly and through gendermt's workflow stage (two runs with the same outputs),
and print a JSON report. usage: python tiny_bertscore.py WORKDIR HYP REF
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

SENTENCES = [
    "the nurse finished her shift .", "l' infirmière a fini son service .",
    "the engineer checked the bridge .", "l' ingénieur a vérifié le pont .",
    "iel est un.e chirurgien.ne prudent.e .", "le professeur a lu une histoire aux enfants .",
]


def build(folder: Path) -> None:
    import torch
    from transformers import BertConfig, BertModel, BertTokenizerFast

    torch.manual_seed(0)
    folder.mkdir(parents=True, exist_ok=True)
    words = sorted({w for s in SENTENCES for w in re.findall(r"\w+|[^\w\s]", s.lower())})
    chars = sorted({c for w in words for c in w})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words,
             *[f"##{c}" for c in chars if f"##{c}" not in words]]
    (folder / "vocab.txt").write_text("\n".join(dict.fromkeys(vocab)) + "\n", encoding="utf-8")
    tokenizer = BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True,
                                  model_max_length=128)
    tokenizer.save_pretrained(folder)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=64, max_position_embeddings=130)
    BertModel(config).save_pretrained(folder)


def main(workdir: Path, hyp: Path, ref: Path) -> None:
    import bert_score
    import pandas as pd

    from gendermt.data.io import write_jsonl
    from gendermt.scoring.bertscore import bertscore_benchmark

    model = workdir / "tiny-bert"
    build(model)
    hyps = hyp.read_text(encoding="utf-8").splitlines()
    refs = ref.read_text(encoding="utf-8").splitlines()
    _, _, f1 = bert_score.score(hyps, refs, model_type=str(model), num_layers=1, device="cpu")
    items = [f"i{n}" for n in range(len(hyps))]
    pd.DataFrame({"item_id": items, "source": "s", "reference": refs}).to_parquet(
        workdir / "data.parquet", index=False)
    runs = []
    for prompt in ("p", "q"):  # the same outputs under two prompts: scored once
        runs.append(workdir / "tr" / "sys" / f"{prompt}.jsonl")
        write_jsonl(runs[-1], ({"item_id": i, "hypothesis": h}
                               for i, h in zip(items, hyps, strict=True)))
    bertscore_benchmark(runs, workdir / "data.parquet", workdir / "bs.parquet",
                        workdir / "bs.json", {"model": str(model), "num_layers": 1, "gpus": 0})
    stored = pd.read_parquet(workdir / "bs.parquet")
    print(json.dumps({"model": str(model), "direct": [100 * v for v in f1.tolist()],
                      "stage": stored.to_dict(orient="list"),
                      "summary": json.loads((workdir / "bs.json").read_text())}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
