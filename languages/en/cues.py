"""English cues of open-ended (code) and conversational (chat) requests: regex alternatives per cue (reading/cues.py).

'greet' holds the words a greeting starts with, 'comparison' the words before a compared number.
"""

from __future__ import annotations

CUES = {
    "why": r"\bwhy\b",
    "compare": r"\bcompar\w*|\bcontrast\w*",
    "summarise": r"\bsummar\w*|\bdescribe\b|\bwrite (?:a|an|up)\b",
    "explain": r"\bexplain\w*|\bwhat (?:is|are|does)\b|\bwhat's\b|\bhow (?:does|do|can|should)\b|\bmeaning\b|"
    r"\bdifference between\b",
    "greet": r"hi|hello|hey|thanks?|thank you|cheers|bye|perfe[ck]t\w*|great|ok|okay|good night|super",
    "analysis": r"\bstatistic\w*|\bsignifican\w*|\bcorrelat\w*|\bregression\b|\btest it\b|\bp-?value|\bgini\b|"
    r"\bindex\b|"
    r"\bindicator|\bscore\b|\bweighted\b|\bforecast\w*|\bpredict\w*|\btrend\w*|\bover time\b|\bmonthly\b|"
    r"\btime series\b|\belbow\b|\boptimal\b|\bbest\b|\bsuitab\w*|\bmulti-?criteria\b|\bsite selection\b|"
    r"\bequity\b|\baccessibility\b|\bvulnerab\w*|\bcomposite\b|\banaly[sz]\w*|\bmodel\b|\bsimulat\w*|"
    r"\bscenario|\bper capita\b|\bper (?:\d+|thousand|hundred|head)\b|\bdecades?\b|\bfarthest\b|\bfurthest\b|"
    r"\binsights?\b|\bassess\w*|\bestimat\w*|\bevaluat\w*|\boutlier|\banomal\w*|\bhotspot\w*|\bcluster analysis\b",
    "product": r"\bdashboard\b|\bweb ?page\b|\bhtml\b|\breport\b|\binteractive map\b|\banimat\w*|\btwo y[- ]axes\b|"
    r"\bcustom\b|\bcolou?r ramp\b|\blegend\b|\bstory ?map\b",
    "chain": r"\bthen\b|\bafterwards\b|\bafter that\b|\bfollowed by\b",
    "meta": r"\blayers? (?:are )?loaded\b|\bhow many layers\b|\bprojected\b|\bsample values\b|\bwhich fields\b|"
    r"\bwhat crs\b",
    "question": r"\?\s*$",
    "cleanup": r"\bduplicat\w*|\bdedup\w*|\bclean(?:\s+up|\s+it|\s+them)?\b",
    "comparison": r"\bmore than|\bless than|\bfewer than|\bgreater than|\bover|\bunder|\babove|\bbelow|"
    r"\bat least|\bat most|\bbetween|\bbefore|\bafter",
}
# Whole patterns of a comparison with a number beyond '<word> <number>' (none in English).
COMPARISON_PATTERNS: tuple[str, ...] = ()
# Characters the language writes numbers with besides 0-9 (none).
NUMERALS = ""
