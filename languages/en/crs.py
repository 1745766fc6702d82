"""English (and language-neutral) CRS words: common CRS names, UTM zone and hemisphere words, role markers.

Patterns are regex alternatives on folded text; reading/crs.py joins every language's in the order of LANGUAGES
(for names, per EPSG code: the same names in every language, so a name's order and length are kept).
"""

from __future__ import annotations

# Names users write for common CRSs, per EPSG code (ESRI for 54030 and 54009); every code in the English table.
CRS_NAMES = {
    3857: r"web[\s-]*mercator|pseudo[\s-]*mercator|google[\s-]*mercator|spherical mercator",
    4326: r"wgs\s*-?\s*(?:19)?84|wgs 1984|lat(?:itude)?\s*(?:/|and|&|,)\s*lon(?:gitude)?|"
    r"lon(?:gitude)?\s*(?:/|and|&|,)\s*lat(?:itude)?|geographic coordinates"
    r"|plain (?:lat|long)|degrees",
    27700: r"british national grid|osgb\s*(?:19)?36|ordnance survey|bng\b",
    2157: r"irish transverse mercator|\bitm\b",
    3035: r"etrs\s*-?\s*89[\s/-]*laea|laea europe|lambert azimuthal equal area europe",
    3034: r"etrs\s*-?\s*89[\s/-]*lcc|lcc europe",
    2154: r"lambert[\s-]*93|rgf\s*93",
    2056: r"swiss lv95|lv95|ch1903\+",
    21781: r"swiss lv03|lv03|ch1903",
    28992: r"amersfoort|dutch rd|rd new|rijksdriehoek",
    2193: r"nztm|new zealand transverse mercator",
    7844: r"gda\s*2020",
    4283: r"gda\s*94",
    5070: r"conus albers|us albers|albers (?:equal area )?(?:usa|conus)|usa contiguous albers",
    3395: r"world mercator|\bmercator\b",
    4269: r"nad\s*83",
    4267: r"nad\s*27",
    4258: r"etrs\s*-?\s*89",
    4490: r"cgcs\s*2000",
    4214: r"beijing\s*(?:19)?54",
    4610: r"xi'?an\s*(?:19)?80",
    8857: r"equal earth",
    54030: r"robinson",
    54009: r"mollweide",
}
# Words that say a projected CRS is meant (a datum found beside them is not the answer).
PROJECTION_WORDS = (
    r"\b(?:zone|mga|gauss|kr(?:u|ue)ger|lambert|conformal|mercator|transverse|stereographic|albers|grid|"
    r"state\s*plane|cm\s*\d+|tm\d*)\b|zone\s*\d"
)
# A UTM zone: the word before its number, a word after it, the hemisphere, and the words of the southern one.
ZONE_WORDS = r"zone|zona"
ZONE_SUFFIXES = ""
HEMISPHERES = r"[ns]|north|south"
SOUTH_STARTS = ("s",)
SOUTHERN = r"south(?:ern)? hemisphere"
# A bare code after a marker ('from 4326 to 3857'), and the target code of a request ('to 3857').
CODE_MARKERS = r"\bfrom|\binto|\bto|\bin"
TARGET_CODE_WORDS = r"to|into|in"
# Distance units after a number: '500 m' is a distance, not a code.
UNIT_WORDS = r"m|km|meter|metres?|ft|feet"
# Role markers before a CRS: source ('from the CRS …') and target ('to the projection …'), with articles and nouns.
SOURCE_WORDS = r"\bfrom"
SOURCE_ARTICLES = r"the\s+"
SOURCE_NOUNS = r"crs\s+|projection\s+"
TARGET_WORDS = r"\bto|\binto|\bin|\bas"
TARGET_ARTICLES = r"the\s+|a\s+|an\s+"
TARGET_NOUNS = r"crs\s+|projection\s+"
