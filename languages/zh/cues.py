"""Chinese cues of open-ended (code) and conversational (chat) requests: regex alternatives per cue (reading/cues.py).

'greet' holds the words a greeting starts with, 'comparison' the words before a compared number.
"""

from __future__ import annotations

CUES = {
    "why": r"为什么|为何|原因",
    "compare": r"比较|对比",
    "summarise": r"总结|描述|写一段",
    "explain": r"什么是|解释|如何|怎么|是什么",
    "greet": r"你好|谢谢|完美|好的|再见|晚安",
    "analysis": r"人均|指数|趋势|预测|相关|回归|适宜|选址|综合|加权|分析|异常|最佳|显著",
    "product": r"网页|报告|动画|仪表盘",
    "chain": r"然后|之后|接着|再把",
    "meta": r"投影坐标系|哪些字段|加载了",
    "question": r"？\s*$",
    "cleanup": r"重复|去重|清洗|建模|模拟",
    "comparison": r"大于|小于|超过|低于|高于|不少于|不超过|至少|不足|少于|多于|不到|不低于|介于",
}
# Whole patterns of a comparison with a number beyond '<word> <number>': '在5到10之间', '2000年以前'.
COMPARISON_PATTERNS = (
    r"在\s*(?:\d|[一二两三四五六七八九十])[\d.,万千]*\s*[到至]",
    r"\d\s*年?(?:以前|之前|以后|以上|以下)",
)
# Characters the language writes numbers with besides 0-9 (a compared number may be written with them).
NUMERALS = "一二两三四五六七八九十"
