"""Run in the COMET environment (.venv-comet): save a tiny random-weight BERT with a vocabulary
made from a few sentences, so that BERTScore can run offline. usage: python tiny_bertscore.py DIR
"""

from __future__ import annotations

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


if __name__ == "__main__":
    build(Path(sys.argv[1]))
