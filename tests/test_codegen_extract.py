"""Code extraction from the ways models format a script: fences, tags, JSON, bare code, prose around it."""

from __future__ import annotations

import pytest
from geoclerk.codegen.extract import extract_code

SCRIPT = "import geopandas as gpd\ng = gpd.read_file('a.gpkg')\nprint(len(g))\n"

ROWS = [
    ("python_fence", f"Here is the script:\n```python\n{SCRIPT}```\nIt prints the count.", SCRIPT),
    ("py_fence", f"```py\n{SCRIPT}```", SCRIPT),
    ("python3_fence_with_attrs", f"```python3 title=job.py\n{SCRIPT}```", SCRIPT),
    ("plain_fence", f"```\n{SCRIPT}```", SCRIPT),
    ("tilde_fence", f"~~~python\n{SCRIPT}~~~", SCRIPT),
    ("unclosed_fence", f"```python\n{SCRIPT}", SCRIPT),
    ("bare_code", SCRIPT, SCRIPT),
    ("prose_then_bare_code", f"Sure! This reads the layer.\n\n{SCRIPT}", SCRIPT),
    ("code_tags", "<code>x = 1 &lt; 2\nprint(x)</code>", "x = 1 < 2\nprint(x)\n"),
    ("python_tags", f"<python>\n{SCRIPT}</python>", SCRIPT),
    ("json_code", '{"code": "x = 2\\nprint(x)"}', "x = 2\nprint(x)\n"),
    ("json_in_fence", '```json\n{"script": "print(3)"}\n```', "print(3)\n"),
    ("json_arguments", '{"name": "run", "arguments": {"code": "print(4)"}}', "print(4)\n"),
    ("json_code_with_fence", '{"code": "```python\\nprint(5)\\n```"}', "print(5)\n"),
    ("think_then_fence", f"<think>maybe ```python\nprint('no')\n```</think>\n```python\n{SCRIPT}```", SCRIPT),
    ("repl_prompts", ">>> x = 1\n>>> print(x)\n1\n", "x = 1\nprint(x)\n"),
    ("two_steps_joined", "```python\nimport math\n```\ntext\n```python\nprint(math.pi)\n```",
     "import math\n\nprint(math.pi)\n"),
    ("corrected_version_wins",
     "```python\nimport math\nprint(mth.pi)\n```\nOops:\n```python\nimport math\nprint(math.pi)\n```",
     "import math\nprint(math.pi)\n"),
    ("bash_block_ignored", f"```bash\npip install geopandas\n```\n```python\n{SCRIPT}```", SCRIPT),
]  # fmt: skip


@pytest.mark.parametrize(("reply", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_extract(reply, expected):
    assert extract_code(reply) == expected


@pytest.mark.parametrize(
    "reply",
    ["", "   ", None, "I cannot do that with the data given.", "```bash\nls -la\n```", '{"answer": "no code"}'],
)
def test_no_code(reply):
    assert extract_code(reply) is None
