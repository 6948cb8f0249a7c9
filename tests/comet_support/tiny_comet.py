"""Run in the COMET environment (.venv-comet): build a tiny random-weight COMET checkpoint and
score a small benchmark through gendermt's COMET stage, the real unbabel-comet code path
(load_from_checkpoint, predict, batching). Prints a JSON report for the test to check.

usage: python tiny_comet.py WORKDIR
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

SENTENCES = [
    "The nurse finished her shift.", "L'infirmière a fini son service.",
    "The engineer checked the bridge.", "L'ingénieur a vérifié le pont.",
    "They are a careful surgeon.", "Iel est un.e chirurgien.ne prudent.e.",
    "The teacher read a story to the children.", "Le professeur a lu une histoire aux enfants.",
    "La professeure a lu une histoire aux enfants.", "Lea professeur.e a lu une histoire.",
]


def build_checkpoint(folder: Path) -> Path:
    """hparams.yaml + checkpoints/model.ckpt of a RegressionMetric over a 2-layer XLM-R."""
    import pytorch_lightning as pl
    import torch
    import yaml
    from comet.models import RegressionMetric
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from tokenizers.trainers import UnigramTrainer
    from transformers import XLMRobertaConfig, XLMRobertaModel, XLMRobertaTokenizerFast

    torch.manual_seed(0)
    encoder = folder / "encoder"
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]  # XLM-R's ids 0..4
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.train_from_iterator(SENTENCES * 20, UnigramTrainer(
        vocab_size=200, special_tokens=specials, unk_token="<unk>"))
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    fast = XLMRobertaTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>",
                                   sep_token="</s>", cls_token="<s>", unk_token="<unk>",
                                   pad_token="<pad>", mask_token="<mask>")
    fast.save_pretrained(encoder)
    config = XLMRobertaConfig(vocab_size=tok.get_vocab_size(), hidden_size=32,
                              num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                              max_position_embeddings=130, pad_token_id=1, bos_token_id=0,
                              eos_token_id=2)
    XLMRobertaModel(config, add_pooling_layer=False).save_pretrained(encoder)

    model = RegressionMetric(encoder_model="XLM-RoBERTa", pretrained_model=str(encoder),
                             hidden_sizes=[16], layer="mix", batch_size=4,
                             load_pretrained_weights=True, local_files_only=True)
    hparams = dict(model.hparams)
    (folder / "checkpoints").mkdir(parents=True, exist_ok=True)
    (folder / "hparams.yaml").write_text(yaml.safe_dump(hparams), encoding="utf-8")
    ckpt = folder / "checkpoints" / "model.ckpt"
    torch.save({"state_dict": model.state_dict(), "hyper_parameters": hparams,
                "pytorch-lightning_version": pl.__version__, "epoch": 0, "global_step": 0},
               ckpt)
    return ckpt


def main(workdir: Path) -> None:
    import pandas as pd

    from gendermt.data.io import write_jsonl
    from gendermt.scoring.comet import comet_benchmark, load_model

    started = time.perf_counter()
    build_checkpoint(workdir / "tiny-comet")
    built = time.perf_counter() - started

    sources = [SENTENCES[0], SENTENCES[2], SENTENCES[4], SENTENCES[6], SENTENCES[6],
               SENTENCES[6]]  # the last three: one English example in three gender variants
    references = [SENTENCES[1], SENTENCES[3], SENTENCES[5], SENTENCES[7], SENTENCES[8],
                  SENTENCES[9]]
    data = pd.DataFrame({"item_id": [f"i{n}" for n in range(6)], "source": sources,
                         "reference": references})
    data.to_parquet(workdir / "data.parquet", index=False)
    runs = {  # two systems × two prompts; "copy" ignores the prompt, so its triples recur
        ("copy", "baseline"): list(data["source"]),
        ("copy", "moral"): list(data["source"]),
        ("oracle", "baseline"): list(data["reference"]),
        ("oracle", "moral"): list(data["reference"][:3]) + ["Autre chose.", "x", "y"],
    }
    files = []
    for (system, prompt), hyps in runs.items():
        path = workdir / "translations" / system / f"{prompt}.jsonl"
        write_jsonl(path, ({"item_id": i, "hypothesis": h} for i, h in zip(data["item_id"], hyps,
                                                                            strict=True)))
        files.append(path)
    settings = {"model": str(workdir / "tiny-comet"), "batch_size": 4, "gpus": 0}
    comet_benchmark(files, workdir / "data.parquet", workdir / "comet.parquet",
                    workdir / "comet.json", settings)

    # through the score store: the four runs, then a fifth whose triples are half new; the
    # scores read back equal those computed without the store
    store = workdir / "store"
    comet_benchmark(files, workdir / "data.parquet", workdir / "stored.parquet",
                    workdir / "stored.json", settings, store_dir=store)
    extra = workdir / "translations" / "extra" / "baseline.jsonl"
    write_jsonl(extra, ({"item_id": i, "hypothesis": h} for i, h in zip(
        data["item_id"], list(data["reference"][:3]) + ["Neuf.", "Neuf deux.", "Neuf trois."],
        strict=True)))
    comet_benchmark([*files, extra], workdir / "data.parquet", workdir / "stored.parquet",
                    workdir / "stored5.json", settings, store_dir=store)
    stored = pd.read_parquet(workdir / "stored.parquet")

    # the same triples one by one (batch size 1), straight through COMET's predict
    model, version = load_model(str(workdir / "tiny-comet" / "checkpoints" / "model.ckpt"))
    scores = pd.read_parquet(workdir / "comet.parquet")
    frame = scores.merge(data, on="item_id")
    hyps = {(s, p, i): h for (s, p), hs in runs.items() for i, h in zip(data["item_id"], hs,
                                                                       strict=True)}
    one_by_one = model.predict([{"src": r.source, "mt": hyps[r.system, r.prompt, r.item_id],
                                 "ref": r.reference} for r in frame.itertuples()],
                               batch_size=1, gpus=0, progress_bar=False).scores
    print(json.dumps({
        "version": version, "build_seconds": built,
        "scores": scores.to_dict(orient="list"),
        "one_by_one": [100.0 * s for s in one_by_one],
        "summary": json.loads((workdir / "comet.json").read_text(encoding="utf-8")),
        "stored_scores": stored.to_dict(orient="list"),
        "store_summaries": [json.loads((workdir / f).read_text(encoding="utf-8"))
                            for f in ("stored.json", "stored5.json")],
    }))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
