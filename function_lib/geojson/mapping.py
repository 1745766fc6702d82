"""GeoPandas tools that show data: map and chart PNGs (matplotlib Agg) and self-contained HTML views."""

from __future__ import annotations

import html
import json

from ...errors import ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult
from ..io import checked_layer
from ..spec import Param, ToolSpec
from ._base import LAYER, tool_list

TOOLS, tool = tool_list()

PLOT_KINDS = ("map", "choropleth", "bar", "scatter", "histogram")
HTML_ROW_LIMIT = 5000  # beyond this an HTML view stays usable only with a sample
SVG_WIDTH = 720


def _figure():
    # Figure + Agg canvas, not pyplot: no global state, safe in a QGIS worker thread.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 6), dpi=100)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot(111)


def _save_png(ctx: RunContext, fig, name: str):
    path = ctx.unique_path(name, ".png")
    fig.tight_layout()
    fig.savefig(path)
    return ctx.add_output(path, name=path.stem, kind="image")


def _is_numeric(series) -> bool:
    import pandas as pd

    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def _draw_layer(ax, gdf, field: str | None) -> dict:
    """Draw gdf on ax, coloured by field with a legend (colour bar for numbers, classes for text)."""
    if field is None:
        gdf.plot(ax=ax, color="#3a7dc9", edgecolor="#1d3f66", linewidth=0.5, markersize=12)
        return {"legend": None}
    if _is_numeric(gdf[field]):
        gdf.plot(
            ax=ax,
            column=field,
            cmap="viridis",
            legend=True,
            legend_kwds={"label": field},
            edgecolor="#333333",
            linewidth=0.3,
            markersize=14,
            missing_kwds={"color": "lightgrey"},
        )
        return {"legend": "colorbar", "min": float(gdf[field].min()), "max": float(gdf[field].max())}
    categories = gdf[field].astype("string").fillna("(empty)")
    gdf.assign(_category=categories).plot(
        ax=ax,
        column="_category",
        categorical=True,
        cmap="tab20",
        legend=True,
        legend_kwds={"title": field, "loc": "best"},
        edgecolor="#333333",
        linewidth=0.3,
        markersize=14,
    )
    return {"legend": "categories", "categories": sorted(categories.unique().tolist())}


def _axes_labels(ax, gdf, title: str) -> None:
    ax.set_title(title)
    unit = "degrees" if gdf.crs is not None and gdf.crs.is_geographic else "map units"
    crs = gdf.crs.to_string() if gdf.crs is not None else "no CRS"
    ax.set_xlabel(f"x ({unit}, {crs})")
    ax.set_ylabel("y")


@tool(
    ToolSpec(
        name="visualize_layer",
        half="geojson",
        category="interaction",
        paper_name="VisualizeGeoJSONData",
        purpose="Quick map of a layer as a PNG, optionally coloured by a field.",
        params=(LAYER, Param("field", "field", "Colour by this field", required=False, of_layer="layer")),
        returns="A PNG map.",
        keywords=("show", "display", "visualize", "map of", "view"),
    )
)
def visualize_layer(ctx: RunContext, layer: str, field: str | None = None) -> ToolResult:
    gdf = checked_layer(ctx, layer, repair=False)
    fig, ax = _figure()
    legend = _draw_layer(ax, gdf, field)
    _axes_labels(ax, gdf, f"{layer}" + (f" by {field}" if field else ""))
    out = _save_png(ctx, fig, f"{layer}_map")
    return ToolResult(
        summary=tr("Drew a map of '{layer}' ({n} features) to {path}.").format(layer=layer, n=len(gdf), path=out.path),
        outputs=[out],
        values=legend,
    )


@tool(
    ToolSpec(
        name="plot_map",
        half="geojson",
        category="mapping",
        paper_name="PlotGeoDataFrameByMatplotlib",
        purpose="Map or chart image: choropleth, bar, scatter or histogram of a field, with legend.",
        params=(
            LAYER,
            Param("field", "field", "Field to show", required=False, of_layer="layer"),
            Param("kind", "enum", "Plot type", required=False, default="map", enum=PLOT_KINDS),
            Param("title", "string", "Title", required=False),
        ),
        returns="A PNG image.",
        examples=({"layer": "countries", "field": "pop_est", "kind": "choropleth"},),
        keywords=("plot", "chart", "choropleth", "histogram", "bar chart", "thematic map"),
    )
)
def plot_map(
    ctx: RunContext, layer: str, field: str | None = None, kind: str = "map", title: str | None = None
) -> ToolResult:
    gdf = checked_layer(ctx, layer, repair=False)
    if kind != "map" and field is None:
        raise ValidationError(f"A {kind} needs a field to show.", fix="Give field, like population.")
    if kind == "histogram" and not _is_numeric(gdf[field]):
        raise ValidationError(f"A histogram needs a numeric field; '{field}' is text.", fix="Use kind=bar for text.")
    fig, ax = _figure()
    title = title or f"{layer}" + (f": {field}" if field else "")
    if kind in ("map", "choropleth"):
        values = _draw_layer(ax, gdf, field)
        _axes_labels(ax, gdf, title)
    elif kind == "scatter":
        points = gdf.geometry.representative_point()
        values = _draw_layer(ax, gdf.set_geometry(points), field)
        _axes_labels(ax, gdf, title)
    elif kind == "bar":
        values = _bar(ax, gdf, field)
        ax.set_title(title)
    else:
        counts, edges, _ = ax.hist(
            gdf[field].dropna(),
            bins=min(20, max(5, gdf[field].nunique())),
            color="#3a7dc9",
            edgecolor="white",
            label=field,
        )
        ax.set(title=title, xlabel=field, ylabel="features")
        ax.legend()
        values = {"counts": [int(c) for c in counts], "edges": [float(e) for e in edges]}
    out = _save_png(ctx, fig, f"{layer}_{kind}")
    return ToolResult(
        summary=f"Plotted a {kind} of '{layer}'{' ' + field if field else ''} to {out.path}.",
        outputs=[out],
        values=values,
    )


def _bar(ax, gdf, field: str) -> dict:
    """Text field: features per category. Numeric field: the 30 largest values, labelled by a name field."""
    if _is_numeric(gdf[field]):
        label_col = next(
            (c for c in gdf.columns if c != field and c != gdf.geometry.name and not _is_numeric(gdf[c])), None
        )
        top = gdf.nlargest(30, field)
        labels = top[label_col].astype(str).tolist() if label_col else [str(i) for i in top.index]
        heights = top[field].astype(float).tolist()
        ax.set_ylabel(field)
    else:
        counts = gdf[field].astype("string").fillna("(empty)").value_counts()
        labels, heights = counts.index.tolist(), [int(v) for v in counts.to_numpy()]
        ax.set_ylabel("features")
    ax.bar(range(len(heights)), heights, color="#3a7dc9", label=field)
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=8)
    ax.legend()
    return {"labels": labels, "heights": heights}


# -- HTML views ------------------------------------------------------------------------------
def _records(gdf) -> tuple[list[str], list[list]]:
    """Column names and JSON-safe rows of the attribute table."""
    data = gdf.drop(columns=gdf.geometry.name)
    columns = [str(c) for c in data.columns]
    rows = json.loads(data.to_json(orient="values", date_format="iso", default_handler=str))
    return columns, rows


def _json_script(element_id: str, payload) -> str:
    text = json.dumps(payload, ensure_ascii=False).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _limited(ctx, gdf, name: str):
    if len(gdf) <= HTML_ROW_LIMIT:
        return gdf
    ctx.note(
        tr("The HTML view of '{layer}' shows the first {limit} of {n} features.").format(
            layer=name, limit=HTML_ROW_LIMIT, n=len(gdf)
        )
    )
    return gdf.head(HTML_ROW_LIMIT)


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body{{font-family:sans-serif;margin:1em}} table{{border-collapse:collapse;font-size:13px}}
td,th{{border:1px solid #ccc;padding:2px 6px}} th{{background:#eee;position:sticky;top:0}}
tr.hit td{{background:#ffe9a8}} td[contenteditable]:focus{{outline:2px solid #3a7dc9}}
#wrap{{display:flex;gap:1em;align-items:flex-start}} #tbl{{max-height:80vh;overflow:auto}}
svg path,svg circle{{fill:#9ec3ea;stroke:#1d3f66;stroke-width:1;vector-effect:non-scaling-stroke;cursor:pointer}}
svg path.line{{fill:none;stroke-width:2}} svg .hit{{fill:#f2a900;stroke:#a05a00}} svg .dim{{opacity:.15}}
</style></head><body>
<h2>{title}</h2><p>{intro}</p>
{controls}
<div id="wrap">{svg}<div id="tbl"><table id="t"><thead></thead><tbody></tbody></table></div></div>
{data}
<script>{script}</script>
</body></html>
"""

TABLE_JS = """
const D=JSON.parse(document.getElementById('data').textContent);
const head=document.querySelector('#t thead'),body=document.querySelector('#t tbody');
head.innerHTML='<tr><th>#</th>'+D.columns.map(c=>'<th>'+esc(c)+'</th>').join('')+'</tr>';
function esc(s){return String(s===null?'':s)
 .replace(/[&<>"]/g,ch=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[ch]));}
const cell=v=>'<td'+(D.editable?' contenteditable':'')+'>'+esc(v)+'</td>';
body.innerHTML=D.rows.map((r,i)=>'<tr data-i="'+i+'"><td>'+i+'</td>'+r.map(cell).join('')+'</tr>').join('');
"""

EDIT_JS = (
    TABLE_JS
    + """
function current(){return [...body.rows].map(tr=>[...tr.cells].slice(1).map(td=>td.textContent));}
function save(name,text,type){const a=document.createElement('a');
 a.href=URL.createObjectURL(new Blob([text],{type}));a.download=name;a.click();}
document.getElementById('csv').onclick=()=>{const q=v=>'"'+String(v).replace(/"/g,'""')+'"';
 const lines=[D.columns.map(q).join(',')].concat(current().map(r=>r.map(q).join(',')));
 save(D.name+'_edited.csv',lines.join('\\n'),'text/csv');};
document.getElementById('gj').onclick=()=>{const rows=current();const g=JSON.parse(JSON.stringify(D.geojson));
 g.features.forEach((f,i)=>{f.properties={};D.columns.forEach((c,j)=>f.properties[c]=rows[i][j]);});
 save(D.name+'_edited.geojson',JSON.stringify(g),'application/geo+json');};
"""
)

QUERY_JS = (
    TABLE_JS
    + """
const shapes=[...document.querySelectorAll('svg [data-i]')];
function pick(i){body.querySelectorAll('tr.hit').forEach(t=>t.classList.remove('hit'));
 shapes.forEach(s=>s.classList.toggle('hit',s.dataset.i==i));
 const tr=body.querySelector('tr[data-i="'+i+'"]');if(tr){tr.classList.add('hit');tr.scrollIntoView({block:'nearest'});}
 document.getElementById('info').textContent=D.columns.map((c,j)=>c+': '+D.rows[i][j]).join(' | ');}
shapes.forEach(s=>s.onclick=()=>pick(s.dataset.i));
body.onclick=e=>{const tr=e.target.closest('tr');if(tr)pick(tr.dataset.i);};
document.getElementById('q').oninput=e=>{const q=e.target.value.toLowerCase();
 [...body.rows].forEach((tr,i)=>{const ok=!q||D.rows[i].some(v=>String(v).toLowerCase().includes(q));
 tr.style.display=ok?'':'none';
 shapes.filter(s=>s.dataset.i==i).forEach(s=>s.classList.toggle('dim',!ok));});};
"""
)


@tool(
    ToolSpec(
        name="interactive_edit",
        half="geojson",
        category="interaction",
        paper_name="InteractiveEdit",
        purpose="Editable HTML table of a copy of the layer, with CSV/GeoJSON download of the edits.",
        params=(LAYER,),
        returns="An HTML page (offline, no web resources).",
        keywords=("edit", "editable", "attribute table", "modify values"),
    )
)
def interactive_edit(ctx: RunContext, layer: str) -> ToolResult:
    gdf = _limited(ctx, checked_layer(ctx, layer, repair=False), layer)
    columns, rows = _records(gdf)
    geo = gdf.to_crs(4326) if gdf.crs is not None and not gdf.crs.is_geographic else gdf
    payload = {
        "name": layer,
        "columns": columns,
        "rows": rows,
        "editable": True,
        "geojson": json.loads(geo[[geo.geometry.name]].to_json(drop_id=True)),
    }
    controls = '<button id="csv">Download edited CSV</button> <button id="gj">Download edited GeoJSON</button>'
    page = PAGE.format(
        title=html.escape(f"Edit a copy of {layer}"),
        controls=controls,
        svg="",
        intro=f"{len(gdf)} features. Click a cell to edit; the original layer is not changed.",
        data=_json_script("data", payload),
        script=EDIT_JS,
    )
    return _html_result(
        ctx, page, f"{layer}_edit", f"Wrote an editable table of a copy of '{layer}' ({len(gdf)} features)"
    )


@tool(
    ToolSpec(
        name="interactive_query",
        half="geojson",
        category="query",
        paper_name="InteractiveQuery",
        purpose="Searchable, clickable HTML view of a layer: table plus an offline SVG map.",
        params=(LAYER,),
        returns="An HTML page (offline, no web resources).",
        keywords=("explore", "identify", "search features", "interactive"),
    )
)
def interactive_query(ctx: RunContext, layer: str) -> ToolResult:
    gdf = _limited(ctx, checked_layer(ctx, layer, repair=False), layer)
    columns, rows = _records(gdf)
    payload = {"name": layer, "columns": columns, "rows": rows, "editable": False}
    controls = '<input id="q" placeholder="Search any field" size="40"> <span id="info"></span>'
    page = PAGE.format(
        title=html.escape(f"Query {layer}"),
        controls=controls,
        svg=svg_map(gdf),
        intro=f"{len(gdf)} features. Type to filter; click a row or a shape to identify it.",
        data=_json_script("data", payload),
        script=QUERY_JS,
    )
    return _html_result(ctx, page, f"{layer}_query", f"Wrote a searchable view of '{layer}' ({len(gdf)} features)")


def _html_result(ctx: RunContext, page: str, name: str, summary: str) -> ToolResult:
    path = ctx.unique_path(name, ".html")
    path.write_text(page, encoding="utf-8")
    out = ctx.add_output(path, name=path.stem, kind="html")
    text = f"{summary} to {out.path}."
    if ctx.notes:
        text += " " + " ".join(ctx.notes)
    return ToolResult(summary=text, outputs=[out])


def svg_map(gdf, width: int = SVG_WIDTH) -> str:
    """An inline SVG of the layer: one element per feature carrying data-i (its row number)."""
    import numpy as np
    import shapely

    xmin, ymin, xmax, ymax = gdf.total_bounds
    span = max(xmax - xmin, ymax - ymin) or 1.0
    scale = (width - 20) / span
    height = int((ymax - ymin) * scale) + 20

    def xy(coords) -> str:
        return " ".join(f"{(x - xmin) * scale + 10:.1f},{(ymax - y) * scale + 10:.1f}" for x, y in coords)

    def shape(geom, i: int) -> list[str]:
        if geom is None or geom.is_empty:
            return []
        kind = geom.geom_type
        if kind == "Point":
            x, y = xy([(geom.x, geom.y)]).split(",")
            return [f'<circle data-i="{i}" cx="{x}" cy="{y}" r="4"/>']
        if kind in ("LineString", "LinearRing"):
            return [f'<path class="line" data-i="{i}" d="M{xy(geom.coords)}"/>']
        if kind == "Polygon":
            rings = [geom.exterior, *geom.interiors]
            d = " ".join(f"M{xy(r.coords)}Z" for r in rings)
            return [f'<path data-i="{i}" fill-rule="evenodd" d="{d}"/>']
        return [part for sub in geom.geoms for part in shape(sub, i)]

    # Detail below half a pixel is invisible: simplify first (vectorized) to keep the page small.
    drawn = shapely.simplify(np.asarray(gdf.geometry.array), 0.5 / scale, preserve_topology=True)
    elements = [e for i, geom in enumerate(drawn) for e in shape(geom, i)]
    return f'<svg width="{width}" height="{height}">{"".join(elements)}</svg>'
