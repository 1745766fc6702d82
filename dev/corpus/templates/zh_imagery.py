"""Chinese templates for imagery: normalized-difference indices, unsupervised classification, change, NDVI zones."""

FUNCTION = {
    "normalized_difference": [
        "计算{raster}的{index}",
        "用{raster}计算{index}",
        "{raster}的{index}",
        "从{raster}生成{index}栅格",
        ("计算NDVI", {"index": "ndvi"}),
        ("计算{raster}的植被指数", {"index": "ndvi"}),
        "根据{raster}的波段计算{index}",
        "求{raster}的{index}",
    ],
    "classify_image": [
        "将{raster}分成{n}类",
        "对{raster}做非监督分类，分{n}类",
        "用k均值把{raster}分为{n}类",
        "对{raster}进行非监督分类",
        "影像分类",
        "把{raster}的像元聚成{n}类",
        "对{raster}做k-means分类",
        "{raster}非监督分类成{n}个类别",
    ],
    "raster_change": [
        "检测{before}和{after}之间的变化",
        "{before}到{after}的变化检测",
        "{before}和{after}之间有哪些变化？",
        "{before}与{after}的差值",
        "找出从{before}到{after}变化超过{t}的区域",
        "检测两期影像之间的变化",
        "{before}和{after}之间变化的面积是多少？",
        "用{after}减去{before}",
    ],
    "qgis_zonal_statistics": [
        "统计每个{layer}内{raster}的均值",
        "按{layer}分区统计{raster}的平均值",
    ],
}

CHAINS = [
    ("normalized_difference", "先计算{raster}的NDVI，然后统计每个{layer}的平均值"),
    ("classify_image", "把{raster}分成{n}类，然后把类别转成面"),
]

CODEGEN = [
    "用{layer}的训练样本对{raster}做监督分类",
    "用随机森林对{raster}分类",
    "计算五年NDVI时间序列的逐像元趋势",
    "对卫星影像做大气校正",
    "用边缘检测提取{raster}中的田块边界",
]

CHAT = ["什么是NDVI？", "NDWI需要哪些波段？"]
