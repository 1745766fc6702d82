"""Chinese wording of what a request asks for, read by agent/checks.py and agent/coverage.py (see en/asks.py)."""

from __future__ import annotations

IMAGE_WORDS = r"图片|图像|截图"
PICTURE_WORDS = r"图片|截图|(?:成|为|為)(?:一张|一幅)?图像"
MAYBE_NONE_WORDS = r"是否|有没有|有无|如果有"
SHARE_QUESTION = r"百分之几|占比|所占比例|比例是多少"
MAP_WORDS = r"地图"
QUANTITY_QUESTION = r"多少|百分之几|几个|占比|比例是"
WHICH_QUESTION = r"哪|什么"
