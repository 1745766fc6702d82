"""Word lists (English, German, Chinese) for enum labels, booleans, string cues and grouping, on folded text."""

from __future__ import annotations

import re

# 'touch or cross', 'overlap or touch', 'berühren oder kreuzen': an OR of predicates is their union, intersects.
_PRED = r"(?:touch|cross|overlap|intersect|beruhr|kreuz|schneid|uberlapp)\w*"
_OR_PRED = _PRED + r"\s+(?:or|and/or|oder)\s+" + _PRED
_NOT_IN_OR = r"(?!" + _OR_PRED + r")(?<!or )(?<!oder )"  # a predicate word that is part of such an OR

# enum value → a regex of what users say for it.
ENUM_WORDS = {
    # output units of the measuring tools, only when asked for ('in km', 'as hectares'); metres are the default
    "km": r"(?:in|as|to|into|auf|als)\s+(?:the\s+)?(?:kilomet(?:er|re)s?|km)(?![a-z0-9²])|以(?:公里|千米)(?!²)",
    "km2": r"(?:in|as|to|into|auf|als)\s+(?:the\s+)?(?:square\s+kilomet(?:er|re)s?|sq\.?\s*km|km2|km²|"
    r"quadratkilometer\w*)"
    r"|以平方(?:公里|千米)",
    "ha": r"(?:in|as|to|into|auf|als)\s+(?:the\s+)?(?:hectares?|ha|hektar)(?![a-z])|以公顷|[（(]公顷[）)]",
    "acres": r"(?:in|as|to|into)\s+(?:the\s+)?acres?(?![a-z])|以英亩",
    "mi": r"(?:in|as|to|into|auf|als)\s+(?:the\s+)?(?:miles|mi|meilen)(?![a-z0-9²])|以英里",
    "ft": r"(?:in|as|to|into)\s+(?:the\s+)?(?:feet|ft|foot)(?![a-z0-9²])|以英尺",
    "mi2": r"(?:in|as|to|into)\s+(?:the\s+)?(?:square\s+miles|sq\.?\s*mi|mi2|mi²)",
    "m": r"$^",
    "m2": r"$^",
    "percent": r"per ?cent|percentage|prozent\w*|百分比|百分数|%",  # slope as rise over run × 100
    "intersection": r"intersect\w*|overlap\w*|in common|common area|schnitt\w*|uberschneid\w*|verschneid\w*|求交|相交|"
    r"交集|重叠",
    "union": r"union|combine|vereinig\w*|联合|并集",
    "difference": r"difference|erase|subtract\w*|minus|remove the parts?|cut out|cut away|take away|differenz|"
    r"ausschneid\w*|abzieh\w*|entfern\w*|herausschneid\w*|擦除|差集|去掉|去除|移除|减去|扣除",
    "symmetric_difference": r"symmetric\w*|symmetrical|xor|symmetrisch\w*|对称差",
    "identity": r"identity|identit\w*",
    "count": r"count(?:s|ing)?\b|number of|how many|anzahl|zahl der|数量|个数|计数",
    "sum": r"sum\b|summed|summing|total\b|summe|gesamt\w*|总和|总计|合计|总数|总量|加总",
    "mean": r"mean\b|average|avg\b|durchschnitt\w*|mittelwert|mittlere\w*|平均",
    "min": r"min(?:imum)?\b|smallest|lowest|minim\w*|最小|最低",
    "max": r"max(?:imum)?\b|largest|highest|biggest|maxim\w*|最大|最高",
    "median": r"median|中位数",
    # normalized-difference indices ('green NDVI' starts before its 'ndvi', so the earlier, longer match wins)
    # ('a vegetation index' alone names none of them)
    "ndvi": r"ndvi|normali[sz]ed difference vegetation index|normalisierte\w* differenz\w* vegetationsindex|"
    r"(?<!绿色)归一化植被指数",
    "ndwi": r"ndwi|normali[sz]ed difference water index|normalisierte\w* differenz\w* wasserindex|归一化水体指数",
    "gndvi": r"gndvi|green ndvi|grunes ndvi|绿色归一化植被指数",
    "ndbi": r"ndbi|built[- ]up index|bebauungsindex|建筑指数",
    "mndwi": r"mndwi|modified ndwi|modifizierte\w* ndwi|改进的归一化水体指数",
    "dbscan": r"dbscan|density[- ]based|dichtebasiert\w*|密度",
    "kmeans": r"k[- ]?means|k[- ]?mittel\w*|k均值",
    "centroid": r"centroids?|schwerpunkt\w*|质心|中心点",
    "representative_point": r"representative|point on surface|inside the polygon|innerhalb|repräsentativ\w*|代表点",
    "rectangle": r"oriented|rotated|minimum (?:area )?rectangle|minimal\w* rechteck|最小外接矩形|rectangle",
    "envelope": r"envelope|bounding box|bbox|extent|umhüllend\w*|umhullend\w*|umgebende\w* rechteck|外包框|包络",
    "convex_hull": r"convex hull|convex|hull|konvex\w*|凸包",
    "circle": r"circle|circular|kreis|圆",
    "choropleth": r"choropleth|thematic|coloured by|colored by|shaded by|flächenkartogramm|choroplethen|分级设色|专题",
    "bar": r"bar (?:chart|graph|plot)|bar|balken\w*|柱状图|条形图",
    "scatter": r"scatter\w*|streu\w*|散点",
    "histogram": r"histogram\w*|distribution|verteilung|直方图|分布",
    "map": r"\bmap\b|karte|地图",
    "intersects": _OR_PRED + r"|intersect\w*|schneid\w*|相交|接触或穿过|相交或接触",
    "within": r"within|inside|contained in|falls? in|lie in|lying in|located in|situated in|completely in|innerhalb|"
    r"liegen in|liegt in|位于|之内|内的",
    "contains": r"contain\w*|enthalt\w*|包含",
    "nearest": r"nearest|closest|nächst\w*|nachst\w*|最近",
    "disjoint": r"disjoint|not (?:intersect|touch)\w*|outside|außerhalb|ausserhalb|不相交|之外",
    "touches": _NOT_IN_OR + r"(?:touch\w*|adjacent|border\w*|beruhr\w*|berühr\w*)|相邻|接触(?!或)",
    "overlaps": _NOT_IN_OR + r"(?:overlap\w*|uberlapp\w*|überlapp\w*)|重叠",
    "crosses": _NOT_IN_OR + r"(?:cross\w*|kreuz\w*)|(?<!接触或)穿过|交叉",
    "equals": r"equal geometr\w*|identical|gleich\w*|相同",
    "fastest": r"fastest|quickest|schnellst\w*|最快",
    "shortest": r"shortest|kürzest\w*|kurzest\w*|最短",
    "hexagon": r"hexagon\w*|hex\b|hexagonal|sechseck\w*|六边形",
    "diamond": r"diamond|raute\w*|菱形",
    "point": r"point grid|punktraster|点格网",
    "line": r"line grid|linienraster|线格网",
    "float": r"decimal|float|real|double|小数|浮点",
    "integer": r"integer|whole number|ganzzahl\w*|整数",
    "string": r"text field|string|text|文本|字符串",
    "date": r"\bdate\b|datum|日期",
    "round": r"round cap|rounded",
    "flat": r"flat cap|flat end|butt",
    "square": r"square cap|square end",
}

# boolean param → (regex for True, regex for False or None).
BOOLEAN_WORDS = {
    "dissolve": (
        r"dissolv\w*|merge\w*|merging|single (?:polygon|feature|zone)|one (?:polygon|feature|zone)|unioned|"
        r"auflös\w*|auflos\w*|zusammenf\w*|verschmelz\w*|融合|合并",
        r"without dissolv\w*|don't dissolve|not dissolve\w*",
    ),
    "descending": (
        r"descending|largest first|highest first|biggest first|most first|from (?:high|large)\w* to|decreasing|"
        r"most to least|highest to lowest|largest to smallest|biggest to smallest|von gross nach klein|"
        r"high to low|absteigend|größte\w* zuerst|降序|从大到小|从高到低",
        r"ascending|aufsteigend|升序|从小到大|从低到高",
    ),
    "ascending": (
        r"ascending|smallest|lowest|shortest|cheapest|least|fewest|bottom|aufsteigend|kleinste\w*|niedrigste\w*|"
        r"wenigste\w*|geringste\w*|kurzeste\w*|升序|从小到大|最小|最低|最少|最短|倒数",
        r"descending|largest|highest|biggest|(?<![a-z])top(?![a-z])(?![\s\d]*(?:smallest|lowest|least|fewest))|"
        r"(?<![a-z])most(?![a-z])|absteigend|größte\w*|"
        r"grosste\w*|höchste\w*|hochste\w*|(?<![a-z])meiste\w*|降序|最大|最高|最多",
    ),
    "whole_layer": (
        r"whole layer|entire layer|all features|single (?:centroid|centre|center|point)|"
        r"one (?:centroid|centre|center|point)|overall|mean center|gesamte\w* layer|ganze\w* layer|整个图层|整体|"
        r"(?:centre|center|centroid|middle|mittelpunkt|zentrum|schwerpunkt) (?:of|aller|des|der) "
        r"(?:all|the (?:whole|entire)|the layer|alle[nr]?|gesamten)|"
        r"所有\w{0,6}的(?:中心|质心)",
        None,
    ),
    # within_distance(outside=true): the far side of a distance ('farther than 2 km from the rivers')
    "outside": (
        r"farther than|further than|more than [\d.,]+ ?[a-z]*\s*(?:away|from)|at least [\d.,]+ ?[a-z]*\s*(?:away|from)|"
        r"[\d.,]+ ?[a-z]* or more (?:away|from)|not within|beyond|weiter als|"
        r"mehr als [\d.,]+ ?[a-z]*\s*(?:entfernt|weg)|"
        r"nicht (?:im umkreis|innerhalb)|(?:距离?|离)\S{0,12}(?:超过|大于|以上)|[\d.]+\s*(?:公里|千米|米)(?:以外|之外)|"
        r"不在\S{0,12}(?:范围|以内|之内)",
        None,
    ),
    "assign": (
        r"assign|define the crs|set the crs|declare|without transform\w*|force|zuweisen|festlegen|指定|定义坐标",
        None,
    ),
}

# number param → regex of the words naming it.
NUMBER_WORDS = {
    "z_factor": r"z[- ]?factor|vertical exaggeration|z-faktor|überhöhung|z因子",
    "azimuth": r"azimuth|sun direction|light from|azimut|方位角",
    "altitude": r"altitude|sun angle|sun elevation|sonnenhöhe|高度角",
    "interval": r"interval|every|contours?|contour lines|äquidistanz|abstand|höhenlinien|konturen|"
    r"间隔|每隔|等高距|等高线",
    "burn": r"burn|value of|wert|烧录值",
}

# string param → regex of the cue right before the value.
STRING_CUES = {
    "field_name": r"field called|field named|column called|column named|called|named|name it|feld namens|namens|"
    r"名为|叫做|叫|新建一列|新增一列|添加一列|新建字段|新增字段|添加字段|一列|create|erstelle|"
    r"(?:add|create|new|neues?|neue)\s+(?:a\s+)?(?:new\s+)?(?:numeric\s+|text\s+)?(?:field|column|feld|spalte)",
    "new_name": r"rename to|renamed to|new name|becomes|->|→|\bto|\bas|\bin|\bzu|umbenennen in|"
    r"改名为|重命名为|更名为|命名为|改为|改成|改叫|换成",  # not a bare 为: '区名为武侯区的区' is a filter
    "name": r"called|named|name it|file name|filename|as name|with the name|the name|namens|mit dem namen|"
    r"dateiname|name|名为|命名为|文件名",
    "title": r"titled|title|entitled|with the title|mit dem titel|titel|标题为|标题",
    "value": r"constant value|fixed value|value of|the value|value|set to|filled with|konstante[nm]? wert|wert|"
    r"值为|值",
    "prefix": r"prefix|präfix|前缀",
    "table_field": r"table(?:'s)? field|key field|on field|using field|via",
}

# words before a grouping field: 'by', 'per', 'for each', 'pro', 'nach', 'je', '按', '每个'.
GROUP_CUE = (
    r"(?:by|per|for each|for every|each|grouped by|group by|pro|nach|je|für jede\w*|fur jede\w*|"
    r"按照|按|每个|每种|每类|每一种|各种|各类|各|分|依|根据|不同)"
)
# words for 'type' that name a category field without naming it.
TYPE_WORDS = r"type|kind|category|class|typ|art|kategorie|klasse|类型|类别|种类|类"

# OSM tags for things users download by name.
OSM_TAGS = {
    "amenity=hospital": r"hospital|krankenh|医院",
    "amenity=cafe": r"cafe|coffee|咖啡",
    "amenity=school": r"school|schule|学校",
    "leisure=park": r"park|公园",
    "shop=supermarket": r"supermarket|supermarkt|超市",
    "highway=bus_stop": r"bus ?stop|bushaltestelle|haltestelle|公交",
    "amenity=pharmacy": r"pharmac|apothek|药店",
    "amenity=restaurant": r"restaurant|餐厅|饭店",
    "amenity=bank": r"\bbank|银行",
    "amenity=library": r"librar|bibliothek|图书馆",
    "tourism=hotel": r"hotel|酒店|宾馆",
    "amenity=fuel": r"fuel|petrol|gas station|tankstelle|加油站",
    "amenity=parking": r"parking|parkpl|停车",
    "building=yes": r"building|gebäude|gebaude|建筑",
    "highway=primary": r"primary road|hauptstra|主干道",
}


def osm_tag(folded: str) -> str | None:
    """An explicit key=value tag, or the tag of the thing named ('hospitals' → amenity=hospital)."""
    m = re.search(r"\b([a-z_]+=[a-z_]+)\b", folded)
    if m:
        return m.group(1)
    for tag, pat in OSM_TAGS.items():
        if re.search(pat, folded):
            return tag
    return None


def _fold_tables() -> None:
    """Match on folded text: fold the German and accented words of every table the same way."""
    from .text import fold

    def fold_pattern(pattern: str) -> str:
        # fold the words, never the escapes: fold() lower-cases, and '\S' (not a space) would become '\s'
        return "".join(part if part.startswith("\\") else fold(part) for part in re.split(r"(\\.)", pattern))

    for table in (ENUM_WORDS, NUMBER_WORDS, STRING_CUES, OSM_TAGS):
        for k, v in table.items():
            table[k] = fold_pattern(v)
    for k, (yes, no) in BOOLEAN_WORDS.items():
        BOOLEAN_WORDS[k] = (fold_pattern(yes), fold_pattern(no) if no else None)


def operator_label(op: str, allowed) -> str | None:
    """A comparison operator as one of the tool's operator labels."""
    return op if allowed is None or op in allowed else None


_fold_tables()
