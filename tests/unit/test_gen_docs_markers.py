"""`make docs` (tools/gen_docs.py) rewrites the marked sections of a page, never a marker shown
inside a fenced code block: docs/adding-a-benchmark.md gives a benchmark page's whole text,
marker included, which is an example there, not a section of that page."""

from __future__ import annotations

from tools import gen_docs

PAGE = """# A page
<!-- BEGIN generated:default-systems:gate -->
old
<!-- END -->

File: docs/benchmarks/toy.md
```markdown
# Toy
<!-- BEGIN generated:default-systems:toy -->
<!-- END -->
```
"""


def test_a_marker_in_a_fenced_block_is_no_section():
    assert gen_docs.names_in(PAGE) == ["default-systems:gate"]
    rendered = gen_docs.render(PAGE, {"default-systems:gate": "new",
                                      "default-systems:toy": "filled"})
    assert "<!-- BEGIN generated:default-systems:gate -->\nnew\n<!-- END -->" in rendered
    assert "filled" not in rendered


def test_a_section_whose_body_is_a_fenced_block_is_still_rendered():
    """The README's `cli` section holds a fenced block of its own."""
    text = "<!-- BEGIN generated:cli -->\n```\nold\n```\n<!-- END -->\n"
    assert gen_docs.names_in(text) == ["cli"]
    assert "```\nnew\n```" in gen_docs.render(text, {"cli": "```\nnew\n```"})


def test_the_adding_a_benchmark_page_has_no_section_of_its_own():
    text = (gen_docs.ROOT / "docs" / "adding-a-benchmark.md").read_text(encoding="utf-8")
    assert "<!-- BEGIN generated:default-systems:toy -->" in text
    assert gen_docs.names_in(text) == []
