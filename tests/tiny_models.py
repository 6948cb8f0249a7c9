"""Tiny random-weight Hugging Face models, built on the fly (no download): a Marian
seq2seq model and a Llama causal LM with a chat template, sharing a byte-level BPE tokenizer
trained on a few hundred sentences. They translate nonsense, but through the real code."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHAT_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}<|end|>"
    "{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
SPECIALS = ["<pad>", "<s>", "</s>", "<unk>", "<|end|>", "<|user|>", "<|system|>",
            "<|assistant|>"]


def _corpus() -> list[str]:
    words = ["the", "nurse", "doctor", "engineer", "said", "she", "he", "they", "will",
             "come", "tomorrow", "infirmière", "médecin", "ingénieur", "a", "dit", "qu'elle",
             "viendra", "demain", "translate", "into", "French", "sentence", "following"]
    return [" ".join(words[(i * 7 + j) % len(words)] for j in range(3 + i % 9))
            for i in range(300)]


def tokenizer(vocab_size: int = 300, specials: list[str] = SPECIALS):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(_corpus(), trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", bos_token="<s>", eos_token="</s>",
        unk_token="<unk>", model_input_names=["input_ids", "attention_mask"])


def build_seq2seq(path: Path, lang_codes: tuple[str, ...] = ()) -> Path:
    """A Marian model; ``lang_codes`` become tokens, as NLLB's ``fra_Latn`` are."""
    import torch
    from transformers import GenerationConfig, MarianConfig, MarianMTModel

    torch.manual_seed(0)
    tok = tokenizer()
    tok.add_tokens(list(lang_codes))
    config = MarianConfig(
        vocab_size=len(tok), d_model=32, encoder_layers=1, decoder_layers=1,
        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_position_embeddings=128, pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id, decoder_start_token_id=tok.pad_token_id)
    model = MarianMTModel(config)
    model.generation_config = GenerationConfig(
        pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id,
        decoder_start_token_id=tok.pad_token_id)
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


def build_causal(path: Path, ends_turn_at_once: bool = False) -> Path:
    """A Llama; with ``ends_turn_at_once``, one whose every next token is ``<|end|>`` (its
    final norm is zeroed, so all logits tie and greedy search takes token 0, <|end|>)."""
    import torch
    from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    tok = tokenizer(specials=["<|end|>", *[t for t in SPECIALS if t != "<|end|>"]]
                    if ends_turn_at_once else SPECIALS)
    tok.chat_template = CHAT_TEMPLATE
    config = LlamaConfig(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
        pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id)
    model = LlamaForCausalLM(config)
    if ends_turn_at_once:
        with torch.no_grad():
            model.model.norm.weight.zero_()
    model.generation_config = GenerationConfig(
        pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id)
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


def build_chain_causal(path: Path, chain: list[str], chat_template: bool = False) -> Path:
    """A Llama that continues ``chain`` (byte-level BPE tokens, each once): given token
    ``chain[i]`` last, greedy search takes ``chain[i + 1]``. Its layers add nothing (their
    output projections are zeroed), so the last hidden state is the last token's embedding,
    and the output matrix points each chain token's successor at it. No chat template
    unless asked: a base model, for completion-style prompts."""
    import torch
    from transformers import GenerationConfig, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    tok = tokenizer()
    if chat_template:
        tok.chat_template = CHAT_TEMPLATE
    ids = tok.convert_tokens_to_ids(chain)
    if tok.unk_token_id in ids or len(set(ids)) != len(ids):
        raise ValueError(f"chain tokens must be distinct tokens of the vocabulary: {chain}")
    config = LlamaConfig(
        vocab_size=len(tok), hidden_size=64, intermediate_size=64, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
        pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id, tie_word_embeddings=False)
    model = LlamaForCausalLM(config)
    with torch.no_grad():
        for layer in model.model.layers:
            layer.self_attn.o_proj.weight.zero_()
            layer.mlp.down_proj.weight.zero_()
        emb = model.model.embed_tokens.weight
        model.lm_head.weight.zero_()
        for here, after in zip(ids, ids[1:], strict=False):
            model.lm_head.weight[after] += 20 * emb[here] / emb[here].norm()
    model.generation_config = GenerationConfig(
        pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id)
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


def _m2m100(tok: Any, path: Path) -> Path:
    """A tiny M2M100-architecture model (NLLB's too) for ``tok``, saved with it."""
    import torch
    from transformers import GenerationConfig, M2M100Config, M2M100ForConditionalGeneration

    torch.manual_seed(0)
    # M2M100's language tokens are numbered after its vocabulary, not counted in len(tok)
    size = max(len(tok), max(tok.get_vocab().values()) + 1,
               max(getattr(tok, "lang_code_to_id", {"": 0}).values()) + 1) + 8
    config = M2M100Config(
        vocab_size=size, d_model=32, encoder_layers=1, decoder_layers=1,
        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=64,
        decoder_ffn_dim=64, max_position_embeddings=1024, pad_token_id=tok.pad_token_id,
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
        decoder_start_token_id=tok.eos_token_id)
    model = M2M100ForConditionalGeneration(config)
    model.generation_config = GenerationConfig(
        pad_token_id=tok.pad_token_id, bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id, decoder_start_token_id=tok.eos_token_id)
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


def build_nllb(path: Path) -> Path:
    """An NLLB-200 stand-in: NLLB's own tokenizer class (its 200 FLORES codes as special
    tokens) over a character vocabulary, and a random M2M100 model."""
    from transformers import NllbTokenizer

    chars = sorted({c for line in _corpus() for c in line if c != " "})
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for piece in chars + ["▁" + c for c in chars] + ["▁"]:
        vocab.setdefault(piece, len(vocab))
    return _m2m100(NllbTokenizer(vocab=vocab, merges=[], src_lang="eng_Latn"), path)


def build_m2m100(path: Path) -> Path:
    """An M2M100 stand-in: M2M100's own tokenizer (a SentencePiece model trained here on
    the corpus, its 100 ``__xx__`` language tokens) and a random M2M100 model."""
    import json

    import sentencepiece as spm
    from transformers import M2M100Tokenizer

    path.mkdir(parents=True, exist_ok=True)
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(_corpus()), model_prefix=str(path / "spm"), vocab_size=80,
        model_type="bpe", character_coverage=1.0, bos_id=-1, eos_id=-1, unk_id=0,
        minloglevel=2)
    pieces = [line.split("\t")[0] for line in
              (path / "spm.vocab").read_text(encoding="utf-8").splitlines()]
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for piece in pieces:
        vocab.setdefault(piece, len(vocab))
    (path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    tok = M2M100Tokenizer(str(path / "vocab.json"), str(path / "spm.model"), src_lang="en")
    return _m2m100(tok, path)
