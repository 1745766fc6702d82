"""Chinese CRS words (see languages/en/crs.py): '网络墨卡托', 'UTM 50带', '从4326转换成3857'."""

from __future__ import annotations

CRS_NAMES = {
    3857: r"web墨卡托|网络墨卡托",
    4326: r"经纬度|地理坐标",
    27700: r"英国国家网格",
    3395: r"墨卡托",
    4490: r"国家\s*2000|2000国家大地坐标",
    4214: r"北京\s*(?:19)?54|北京坐标|北京",
    4610: r"西安\s*(?:19)?80|西安坐标",
}
PROJECTION_WORDS = r"[三六3-6]\s*度带|投影带|带号"
ZONE_WORDS = r"带|第"
ZONE_SUFFIXES = r"带"
HEMISPHERES = r"北|南"
SOUTH_STARTS = ("南",)
SOUTHERN = r"南半球"
CODE_MARKERS = r"[从由到为成至]"
TARGET_CODE_WORDS = r"为|到|成"
UNIT_WORDS = r"米|公里"
SOURCE_WORDS = r"从|由"
SOURCE_ARTICLES = ""
SOURCE_NOUNS = ""
TARGET_WORDS = r"到|转换成|转换为|转成|转为|成|为|至"
TARGET_ARTICLES = ""
TARGET_NOUNS = ""
