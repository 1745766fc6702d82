"""Hand-written cues of open-ended (code) and conversational (chat) requests, in English, German and Chinese.

They become extra features next to the n-grams, so that a new phrasing of 'why…', 'compare…', 'build an index…'
or 'thanks!' is recognised even when its words never occurred in the corpus.
"""

from __future__ import annotations

import re

CUES = {
    "why": r"\bwhy\b|\bwarum\b|\bwieso\b|\bweshalb\b|为什么|为何|原因",
    "compare": r"\bcompar\w*|\bcontrast\w*|\bvergleich\w*|比较|对比",
    "summarise": r"\bsummar\w*|\bdescribe\b|\bwrite (?:a|an|up)\b|zusammenfass\w*|beschreib\w*|总结|描述|写一段",
    "explain": r"\bexplain\w*|\bwhat (?:is|are|does)\b|\bwhat's\b|\bhow (?:does|do|can|should)\b|\bmeaning\b|"
    r"\bdifference between\b|\berklär\w*|\bwas (?:ist|sind|bedeutet)\b|\bwie funktioniert\b|"
    r"什么是|解释|如何|怎么|是什么",
    "greet": r"^\W*(?:hi|hello|hey|thanks?|thank you|cheers|danke|hallo|tschüss|tschuss|bye|perfe[ck]t\w*|great|ok|"
    r"okay|"
    r"good night|gute nacht|super|toll|你好|谢谢|完美|好的|再见|晚安)\b",
    "analysis": r"\bstatistic\w*|\bsignifican\w*|\bcorrelat\w*|\bregression\b|\btest it\b|\bp-?value|\bgini\b|"
    r"\bindex\b|"
    r"\bindicator|\bscore\b|\bweighted\b|\bforecast\w*|\bpredict\w*|\btrend\w*|\bover time\b|\bmonthly\b|"
    r"\btime series\b|\belbow\b|\boptimal\b|\bbest\b|\bsuitab\w*|\bmulti-?criteria\b|\bsite selection\b|"
    r"\bequity\b|\baccessibility\b|\bvulnerab\w*|\bcomposite\b|\banaly[sz]\w*|\bmodel\b|\bsimulat\w*|"
    r"\bscenario|\bper capita\b|\bper (?:\d+|thousand|hundred|head)\b|\bdecades?\b|\bfarthest\b|\bfurthest\b|"
    r"\binsights?\b|\bassess\w*|\bestimat\w*|\bevaluat\w*|\boutlier|\banomal\w*|\bhotspot\w*|\bcluster analysis\b|"
    r"statisti\w*|korrelat\w*|\bprognose\w*|\bgewichtet\w*|\beignung\w*|\bstandort\w*|\bverlauf\b|\bpro kopf\b|"
    r"\banalysier\w*|人均|指数|趋势|预测|相关|回归|适宜|选址|综合|加权|分析|异常|最佳|显著",
    "product": r"\bdashboard\b|\bweb ?page\b|\bhtml\b|\breport\b|\binteractive map\b|\banimat\w*|\btwo y[- ]axes\b|"
    r"\bcustom\b|\bcolou?r ramp\b|\blegend\b|\bstory ?map\b|\bwebseite\b|\bbericht\b|网页|报告|动画|仪表盘",
    "chain": r"\bthen\b|\bafterwards\b|\bafter that\b|\bfollowed by\b|\banschließend\b|\banschliessend\b|"
    r"\bdanach\b|\bdann\b|"
    r"然后|之后|接着|再把",
    "meta": r"\blayers? (?:are )?loaded\b|\bhow many layers\b|\bprojected\b|\bsample values\b|\bwhich fields\b|"
    r"\bwhat crs\b|\bgeladen\b|\bprojiziert\b|投影坐标系|哪些字段|加载了",
    "question": r"\?\s*$|？\s*$",
    "cleanup": r"\bduplicat\w*|\bdedup\w*|\bclean(?:\s+up|\s+it|\s+them)?\b|\bdoppelt\w*|\bbereinig\w*|"
    r"\bmodellier\w*|\bsimulier\w*|\bvorhersag\w*|重复|去重|清洗|建模|模拟",
    # a comparison with a number: a filter or a selection ('over 5000', '超过5000', 'mehr als 5.000', '>= 3')
    "comparison": r"(?:\bmore than|\bless than|\bfewer than|\bgreater than|\bover|\bunder|\babove|\bbelow|"
    r"\bat least|\bat most|\bmehr als|\bweniger als|\büber|\bunter|\bmindestens|\bhöchstens|"
    r"\bbetween|\bzwischen|\bab|\bbis|\bvor|\bbefore|\bafter|"
    r"大于|小于|超过|低于|高于|不少于|不超过|至少|不足|少于|多于|不到|不低于|介于|[<>]=?)\s*(?:\d|[一二两三四五六七八九十])|"
    r"在\s*(?:\d|[一二两三四五六七八九十])[\d.,万千]*\s*[到至]|\d\s*年?(?:以前|之前|以后|以上|以下)",
}
_COMPILED = {k: re.compile(v, re.IGNORECASE) for k, v in CUES.items()}


def cue_tokens(text: str) -> list[str]:
    """The cues present in a request, plus its length class."""
    toks = [f"cue_{k}" for k, pat in _COMPILED.items() if pat.search(text)]
    n = len(re.findall(r"\w+", text)) if not re.search(r"[\u4e00-\u9fff]", text) else len(text) // 2
    toks.append("len_short" if n <= 3 else "len_mid" if n <= 12 else "len_long")
    return toks
