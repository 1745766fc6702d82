"""Chinese words of the request reader, matched as substrings (longest first). See languages/__init__.py."""

from __future__ import annotations

FILLERS = ("在", "按", "表格", "整体", "现在",
    "请", "麻烦", "帮我", "帮忙", "给我", "为我", "我想", "我要", "我需要", "想要", "需要", "能不能", "可以", "能否",
    "一下", "下", "吧", "吗", "呢", "啊", "谢谢", "您", "你", "我", "我们", "的", "地", "得", "了", "把", "将", "对",
    "这些", "那些", "这个", "那个", "它们", "它", "其", "所有", "全部", "整个", "图层", "层", "数据", "要素", "文件",
    "结果", "计算", "生成", "创建", "做", "得到", "求", "显示", "列出", "给出", "进行", "执行", "一个", "个", "中",
    "里", "上", "和", "并", "与", "及", "是", "有", "新", "新的", "数据集", "属性", "表", "字段", "点", "线", "面",
    "多边形", "哪些", "什么", "多少", "条", "所", "家", "栋", "块", "名", "座", "给", "找出", "找", "出", "成",
    "按照", "地图上", "地图", "列",
    "哪个", "哪一个", "记录",
)  # fmt: skip

NEGATIONS = ("不", "没", "没有", "无", "非", "除了", "除", "以外", "之外", "排除", "去掉", "除去", "不含", "不包括",
             "外", "减去", "减")  # fmt: skip

EACH = ("每个", "每一个", "每种", "每类", "每", "各个", "各", "分别", "逐个", "单独", "各自")

FORMAT_WORDS = ("shapefile", "shp", "geojson", "kml", "gpkg", "csv", "格式", "文件")

SOURCE_MARKERS = ("从", "由")
TARGET_MARKERS = ("到", "转换成", "转换为", "转成", "转为", "成", "为", "至")

SAVE_WORDS = ("导出", "保存", "输出", "另存", "存为", "存成", "写入", "为", "成", "格式", "文件", "到", "名为")

COMPARE_WORDS = ("欧元", "美元", "元", "万元", "大于", "小于", "超过", "多于", "少于", "不少于", "不超过", "至少",
                 "最多", "等于", "高于", "低于",
                 "以上", "以下", "之间", "在", "其中", "筛选", "选出", "选择", "只保留", "保留", "提取", "仅", "只",
                 "类型", "为", "是", "或", "或者", "且", "并且", "包含", "开头", "名称", "名为", "叫", "值", "不足",
                 "介于", "以", "到", "至", "数", "人数", "记录", "早于", "晚于", "之前", "之后",
                 "乘以", "乘", "除以", "加上", "百分比", "命名为", "叫做")  # fmt: skip

AGG_WORDS = ("总和", "总数", "总计", "合计", "总", "求和", "平均", "平均值", "均值", "中位数", "最大值", "最小值",
             "统计", "数", "数量", "人数", "一共", "共", "加起来")  # fmt: skip

CRS_WORDS = ("坐标系", "坐标参考系", "参考系", "投影", "重投影", "转换", "转", "经纬度", "地理坐标", "墨卡托", "带",
             "坐标", "系统", "代码", "米制", "改")  # fmt: skip

MEASURE_WORDS = ("面积", "长度", "周长", "多大", "多长", "平方米", "平方公里", "公顷", "亩", "公里", "千米", "米",
                 "单位", "总")  # fmt: skip

DISTANCE_WORDS = ("间距", "间隔", "距离", "半径", "范围内", "范围", "以内", "之内", "内", "米", "公里", "千米",
                  "附近", "周围",
                  "周边", "离", "距")  # fmt: skip

TOOL_CUES = {
    "flatten_fields": ("展开", "展平", "嵌套", "结构体", "拆成", "普通", "字段", "属性", "列"),
    "join_table": ("连接", "关联", "挂接", "表", "表格", "键", "字段", "通过"),
    "xy_to_line": ("用", "根据", "起终点", "起点", "终点", "坐标", "连线", "连成线", "生成线", "画线", "线", "到"),
    "join_nearest": ("最近", "最近的", "连接", "连线", "连"),
    "connect_closest_pair": ("离", "离得", "最近", "两", "连", "线", "一条线"),
    "qgis_join_by_nearest": ("最近", "最近的"),
    "nearest_distance_summary": ("最近", "平均"),
    "add_xy": ("添加", "坐标", "xy", "字段"),
    "export_coordinates": ("坐标", "导出", "表格"),
    "qgis_create_grid": ("格网", "网格", "方格网", "渔网"),
    "qgis_delaunay": ("德劳内", "三角网", "三角剖分"),
    "qgis_contours": ("等高线", "间距", "生成", "用"),
    "buffer": ("缓冲区", "缓冲", "做缓冲", "建缓冲"),
    "qgis_buffer": ("缓冲区", "缓冲"),
    "centroids": ("质心", "中心点", "重心", "中心"),
    "reproject": ("投影转换", "重投影", "投影到", "转换", "转到", "转"),
    "clip": ("裁剪", "裁切", "剪裁", "截取", "按边界", "切"),
    "dissolve": ("融合", "合并", "溶解", "边界"),
    "geometry_area": ("面积", "多大"),
    "geometry_length": ("长度", "周长", "多长"),
    "count_features": ("统计", "数量", "个数", "多少", "有几个", "几个", "计数", "有", "各有"),
    "count_points_in_polygons": ("统计", "数量", "个数", "多少", "计数", "内", "里", "落在"),
    "filter_by_expression": ("筛选出", "筛选", "选出", "保留", "只保留", "提取", "选择"),
    "select_rows": ("选出", "最大", "最高", "最多", "最少", "最小", "最低", "前", "选择", "哪个"),
    "group_by": ("按", "统计", "总数", "总和", "平均", "分组", "汇总", "求和"),
    "qgis_basic_statistics": ("统计", "总和", "总数", "平均", "最大", "最小", "求和", "合计"),
    "rename_field": ("改名", "改叫", "改为", "改成", "重命名", "命名", "改"),
    "sort_by_field": ("从早到晚", "从晚到早", "从新到旧", "从旧到新", "排序", "按", "降序", "升序", "从高到低",
                      "从低到高", "从大到小", "从小到大" ),
    "bounding_geometry": ("外包矩形", "bbox", "整体", "外接矩形", "凸包", "外包", "范围", "外接圆", "最小"),
    "within_distance": ("范围内", "以内", "之内", "附近", "距离", "选出", "有"),
    "save_result": ("导出", "保存", "另存"),
    "convert_format": ("转换", "转为", "转成", "格式"),
    "voronoi": ("泰森多边形", "泰森", "沃罗诺伊"),
    "plot_map": ("导出", "成", "按", "png", "地图", "图表", "专题图", "直方图", "柱状图", "画", "绘制"),
    "visualize_layer": ("地图", "显示", "可视化", "画"),
    "normalized_difference": ("计算", "指数", "植被", "波段", "生成", "栅格", "根据", "求"),
    "classify_image": ("分类", "非监督", "分成", "分为", "类别", "类", "聚成", "像元", "k均值", "k-means", "成", "个"),
    "raster_change": ("变化检测", "变化", "检测", "之间", "两期", "期", "差值", "减去", "超过", "区域", "面积", "哪些",
                      "多少", "从", "到", "与", "和"),
}  # fmt: skip

# Verb stems (folded) that name the tool's own work after 'and': 'group the shapes by type and merge them' is
# one dissolve, not a chain. Keyed by trait (function_lib/traits.py).
TRAIT_VERBS = {"dissolves": ("融合", "合并"), "merges_layers": ("合并",)}

# Indefinite pronouns: never the value of a condition ('Nutzung is anything other than irrigation' keeps
# only the negation).
# Words that stand for a layer said before (substrings; a pronoun followed by a layer's name is a determiner).
REFERENCES = ("它们", "它", "这些", "那些", "其中", "上一步的结果", "上一步结果", "刚才的结果", "上次的结果",
              "之前的结果",
              "这个结果", "该结果", "结果图层", "结果")  # fmt: skip
# What makes a pronoun a layer's role in Chinese: a place word after it ('它们中', '这些里面', '它的周围').
REFERENCE_ROLES = ("之内", "以内", "范围内", "里面", "内部", "附近", "周围", "周边", "中", "里", "内", "上")

# '对咖啡馆做同样的操作' (planning/followup.py); matched as substrings.
SAME = ("同样的操作", "同样的处理", "同样的", "同样", "一样的操作", "一样", "相同的操作", "重复", "也")

# '选中人口大于5000的行政区': a selection; '导出', '提取', '保存', '新图层': a new layer.
SELECT_VERBS = ("选择", "选中", "选出", "高亮", "标出", "勾选")
LAYER_WORDS = ("导出", "提取", "保存", "另存", "新图层", "新的图层", "生成图层", "创建图层", "输出", "文件",
               "单独的图层")

# CRS words that say the layer itself goes into the CRS (see en.py).
REPROJECT_VERBS = ("重投影", "转换", "转到", "投影到", "投影为", "改")

INDEFINITE = ("任何", "其他", "别的", "什么")
# The word of a calendar year said with its number ('the year 2025', 'im Jahr 2025', '2025年'): claimed with it.
YEAR_WORDS = ("年度", "年份", "年")

# A request of several steps (router/chain.py; see en.py); substrings.
CHAIN_CONNECTORS = ("然后", "并且", "并", "再", "接着", "之后", "随后", "接下来", "首先", "先", "最后")
RESULT_NOUNS = {"buffer": ("缓冲区域", "缓冲区", "缓冲带", "缓冲范围", "缓冲圈")}
RESULT_DETERMINERS = ("每个", "每一个", "各个", "这些", "那些", "所有")
REFERENCE_WORD = "它们"
EACH_REFERENCE = "它们"
BARE_EACH = ()
ROLE_REFERENCE_WORD = "它们"
CHAIN_AFTER_VERB = ()

# Questions whose answer takes steps (router/questions.py; see en.py); substrings.
HOW_MANY = ("有多少个", "有多少栋", "有多少条", "有多少家", "有多少所", "有多少座", "有多少", "多少个", "多少栋",
            "多少条", "多少家", "多少所", "多少座", "多少", "有几个", "几个")  # fmt: skip
SHARE = ("占比是多少", "占比多少", "占多大比例", "所占比例", "占比", "比例是多少", "比例")
WHICH = ("哪一个", "哪个", "哪些", "哪")
MOST = ("最多",)
FEWEST = ("最少",)
HAVE = ("有", "拥有", "包含")
MEASURE_COMPARATIVES = {"长于": ("length", ">"), "长度超过": ("length", ">"), "长度大于": ("length", ">"),
                        "短于": ("length", "<"), "长度小于": ("length", "<"), "长度不足": ("length", "<")}  # fmt: skip
THAN = ()
KEEP_VERBS = ("筛选出", "筛选", "选择", "选出", "保留", "提取")
JOINS = ("和", "或", "与", "及", "以及", "或者", "还是", "分别")
HIGHEST = ("最高", "最大")
LOWEST = ("最低", "最小")
PER_WORD = "每种"
