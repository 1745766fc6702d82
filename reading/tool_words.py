"""What GIS users call each job, in English, German and Chinese: extra training rows so rare wordings still rank.

These are the toolbox's own vocabulary (QGIS menu names, ArcGIS and textbook terms and their translations),
written once for the product; the corpus supplies the full requests.
"""

from __future__ import annotations

TOOL_WORDS = {
    "buffer": "buffer around | zone around | Puffer | puffern | Pufferzone | 缓冲区 | 缓冲",
    "clip": "clip | mask with | cut to the outline of | crop to | zuschneiden | ausschneiden | ausstanzen | "
    "按边界截取 | 裁剪 | 截取",
    "overlay": "intersect | intersection of | union overlay | symmetric difference | erase | verschneiden | "
    "Verschneidung | Überschneidung | 求交 | 叠加分析 | 擦除",
    "dissolve": "dissolve | dissolve boundaries | merge all features into one | auflösen | Grenzen auflösen | "
    "融合 | 融合边界",
    "qgis_merge_layers": "merge layers | append layers | combine two layers into one layer | Layer zusammenführen | "
    "合并图层",
    "centroids": "centroid | centre point | middle point | Schwerpunkt | Mittelpunkt | 质心 | 中心点",
    "qgis_point_on_surface": "point on surface | point inside polygon | Punkt auf Oberfläche | 面内点",
    "vertices_to_points": "vertices | node points | extract nodes | Stützpunkte | Knoten extrahieren | 节点 | 折点",
    "to_lines": "polygons to lines | outlines as lines | boundaries as lines | Polygone zu Linien | 面转线",
    "lines_to_polygons": "lines to polygons | close rings | Linien zu Polygonen | 线转面",
    "split_polygons_by_lines": "split with lines | cut polygons by lines | teilen mit Linien | zerschneiden | "
    "用线分割面 | 分割",
    "reproject": "reproject | project to | transform coordinates | change CRS | umprojizieren | transformieren | "
    "投影转换 | 重投影",
    "save_result": "save as | export as | write to file | speichern als | exportieren | 保存为 | 导出",
    "convert_format": "convert to format | change file format | umwandeln in | konvertieren | 转换格式 | 转为",
    "filter_by_expression": "filter where | keep only where | select by attribute | extract by expression | "
    "filtern | auswählen wo | 筛选 | 按条件选择",
    "select_rows": "top n | the largest | the first rows | the ones with value | die größten | 前几个 | 最大的",
    "sort_by_field": "sort by | order by | rank by | sortieren nach | ordnen | 排序",
    "count_features": "how many features | count rows | number of features | Anzahl | wie viele | 多少个 | 统计个数",
    "count_points_in_polygons": "count points in polygons | points per polygon | how many in each area | "
    "Punkte in Polygon zählen | 统计每个面内的点数",
    "group_by": "group by | statistics per category | summary by | gruppieren nach | 分组统计 | 按类别汇总",
    "qgis_aggregate": "aggregate | dissolve with statistics | merge and compute | aggregieren | 聚合",
    "qgis_basic_statistics": "basic statistics | min max mean | summary statistics | Statistik | 基本统计",
    "spatial_join": "spatial join | join attributes by location | räumlicher Join | 空间连接",
    "join_table": "attribute join | join table | link table by key | Tabelle verknüpfen | 属性连接 | 关联表",
    "join_nearest": "join nearest | nearest neighbour join | closest feature | nächstgelegenes verbinden | 最近邻连接",
    "qgis_join_by_nearest": "join attributes by nearest | nearest within max distance | search radius | "
    "mit dem nächsten verknüpfen | 按最近距离连接属性",
    "within_distance": "within distance of | closer than | no more than metres from | im Umkreis von | "
    "höchstens Meter von | 距离以内 | 米范围内 | 范围内的 | 以内的",
    "qgis_extract_by_location": "extract by location | select by location | touching | inside of | "
    "nach Lage auswählen | innerhalb von | 按位置选择 | 相接触 | 位于内的",
    "distance_matrix": "distance matrix | all pairwise distances | Distanzmatrix | 距离矩阵",
    "nearest_distance_summary": "average nearest distance | typical distance to the nearest | mittlere Entfernung | "
    "平均最近距离",
    "nearest_point_on_line": "nearest point on line | closest point on the line | snap to line | "
    "nächster Punkt auf Linie | 线上最近点",
    "perpendicular_distance": "perpendicular distance to line | distance to the line | Lotabstand | 垂直距离",
    "connect_closest_pair": "closest pair | two nearest points | nächstes Paar | 最近的两点",
    "voronoi": "voronoi | thiessen polygons | proximity polygons | Voronoi | Thiessen | 泰森多边形",
    "qgis_delaunay": "delaunay | triangulation | triangulate | Triangulation | 三角网",
    "bounding_geometry": "bounding box | convex hull | enclosing circle | minimum bounding geometry | "
    "umschließender Kreis | konvexe Hülle | 最小外接 | 凸包",
    "qgis_oriented_bounding_box": "oriented bounding box | rotated rectangle | orientiertes Rechteck | 最小外接矩形",
    "cluster_points": "cluster | k-means | dbscan | group nearby points | Cluster bilden | 聚类",
    "qgis_nearest_neighbour_analysis": "nearest neighbour index | NNA | clustered or dispersed | "
    "Nächster-Nachbar-Analyse | 最近邻指数",
    "geometry_area": "area of each | how big | size in square metres | Fläche berechnen | Flächenfeld | 面积",
    "geometry_length": "length of each | how long | Länge berechnen | 长度",
    "main_direction": "main direction | orientation | azimuth of polygons | Hauptrichtung | 主方向",
    "add_xy": "add x y | coordinates as fields | lat lon columns | XY-Felder | 添加坐标字段 | 经纬度字段",
    "flatten_fields": "flatten nested fields | unnest structs | json normalize | verschachtelte Felder auflösen | "
    "entschachteln | 展开嵌套字段 | 展平",
    "export_coordinates": "export coordinates | list of coordinates | Koordinaten exportieren | 导出坐标",
    "xy_to_line": "lines from start and end coordinates | origin destination lines | Linien aus Koordinaten | "
    "起终点连线",
    "add_field": "add a field | new column | field calculator | Feld hinzufügen | neue Spalte | 新建字段 | 字段计算器",
    "rename_field": "rename field | rename column | umbenennen | 重命名字段",
    "visualize_layer": "show on the map | display | draw so I can see | anzeigen | darstellen | 显示 | 可视化",
    "plot_map": "chart | plot | choropleth | thematic map | bar chart | histogram | Diagramm | Karte zeichnen | "
    "专题图 | 柱状图 | 直方图",
    "interactive_edit": "edit attributes | editable table | edit mode | bearbeiten | Bearbeitungsmodus | "
    "编辑模式 | 编辑",
    "interactive_query": "identify tool | clickable | inspect features | abfragen | Objekte abfragen | 识别",
    "read_vector": "open file | load file | read shapefile | Datei öffnen | laden | 打开文件 | 导入",
    "download_geojson": "download from url | fetch from OSM | overpass | herunterladen | 下载",
    "qgis_heatmap": "heatmap | kernel density | density map | Dichtekarte | Heatmap | 热力图 | 核密度",
    "qgis_slope": "slope | steepness | gradient | Hangneigung | Neigung | 坡度",
    "qgis_aspect": "aspect | slope direction | Exposition | Hangrichtung | 坡向",
    "qgis_hillshade": "hillshade | shaded relief | Schummerung | Reliefschattierung | 山体阴影",
    "qgis_contours": "contour lines | isolines | Höhenlinien | Konturen | 等高线",
    "qgis_zonal_statistics": "zonal statistics | mean raster value per polygon | Zonenstatistik | 分区统计",
    "qgis_sample_raster": "sample raster values at points | raster value at each point | Rasterwerte abfragen | "
    "提取栅格值",
    "qgis_rasterize": "rasterize | vector to raster | rasterisieren | 栅格化",
    "qgis_polygonize": "polygonize | raster to vector | polygonisieren | 栅格转面",
    "qgis_raster_calculator": "raster calculator | raster math | Rasterrechner | 栅格计算器",
    "qgis_reclassify_by_table": "reclassify | reclassify raster values by ranges | reklassifizieren | 重分类",
    "normalized_difference": "vegetation index | normalized difference index | spectral index | band ratio index | "
    "Vegetationsindex | Spektralindex | 植被指数 | 光谱指数",
    "classify_image": "unsupervised classification | k-means classification of an image | classify the image | "
    "unüberwachte Klassifikation | Bild klassifizieren | 非监督分类 | 影像分类",
    "raster_change": "change detection | changes between two images | difference of two dates | "
    "Änderungsdetektion | Veränderungen erkennen | 变化检测 | 两期影像变化",
    "qgis_create_grid": "create grid | fishnet | hexagon grid | Gitter erstellen | Raster aus Sechsecken | 格网 | 渔网",
    "qgis_random_points_in_polygons": "random points inside polygons | Zufallspunkte | 随机点",
    "qgis_fix_geometries": "fix geometries | repair invalid | Geometrien reparieren | 修复几何",
    "qgis_shortest_path": "shortest path | route between | kürzester Weg | 最短路径",
    "qgis_service_area": "service area | reachable within | isochrone | Einzugsgebiet | 服务区",
}


def tool_word_rows(known: set[str]) -> list[dict]:
    """One training row per wording, for the tools this registry has."""
    rows = []
    for tool, words in TOOL_WORDS.items():
        if tool in known:
            for phrase in (w.strip() for w in words.split("|")):
                rows.append(
                    {"text": phrase, "route": "function", "tool": tool, "layers": [], "weight": 0.7, "tool_only": True}
                )
    return rows
