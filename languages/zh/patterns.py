"""Chinese words of the readers' small patterns (see languages/en/patterns.py); no word boundaries in Chinese."""

from __future__ import annotations

LIST_SEPARATORS = r"、"
LIST_JOINERS = r"和|与|及"
EACH_WORDING = r"每个|每一|每条|每所|每栋|每口|每块|各自|分别|逐个|单独"
OPENERS = r"请|帮我|帮|能|你"
USE_VERBS = r"用|使用"
USE_ARTICLES = ""
# '对咖啡馆做同样的操作': the words such a request holds beside the lexicon's fillers.
SAME_PARTS = ("对", "为", "给", "把", "做", "操作", "处理", "也", "一下", "再", "请")
