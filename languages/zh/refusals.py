"""Chinese refusals written in words ('我无法完成这个任务。'), read by model_text/refusals.py (see en/)."""

from __future__ import annotations

# Openers that may precede a refusal: '抱歉，'.
_LEAD = r"(?:(?:很抱歉|抱歉|对不起|不好意思|遗憾的是)[，,。!！]?\s*)?"

_DO = r"(?:完成|执行|回答|处理|做|满足|进行|提供|计算|帮助|帮你|帮您|解决|实现|胜任|答复)"
REFUSAL = (
    rf"^{_LEAD}(?:"
    r"我(?:必须|只能|将|要)?(?:拒绝|谢绝)"
    rf"|我(?:无法|不能|没法|没办法|不可以|做不到|不会)(?:为您|为你|帮您|帮你)?{_DO}"
    r"|我做不到"
    r"|(?:这个|该|此|这项|本)?(?:任务|请求|要求|问题)(?:无法|不能|没法|不可能)(?:被)?(?:完成|执行|回答|处理|实现|满足)"
    r"|(?:任务|请求)(?:被)?拒绝"
    rf"|无法{_DO}(?:这个|该|此|这项|您的|你的)?(?:任务|请求|要求|问题)"
    r")"
)

# A bare apology before the first sentence ('抱歉。'), skipped; and what ends a sentence and an apology.
APOLOGIES = ("很抱歉", "抱歉", "对不起", "不好意思")
SENTENCE_ENDS = "。！？"
APOLOGY_ENDS = "。！"
