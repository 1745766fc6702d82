"""A tiny registry, router and data set for the agent tests, independent of the real library and router."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib.context import ToolResult
from geoclerk.function_lib.geojson._base import LAYER, vector_result
from geoclerk.function_lib.registry import Registry
from geoclerk.function_lib.spec import Param, ToolSpec
from geoclerk.tests.scripted_server import ScriptedServer, load_script

BUFFER = ToolSpec(
    name="buffer",
    half="geojson",
    category="proximity",
    purpose="Buffer features by a distance.",
    params=(LAYER, Param("distance", "distance", "Buffer distance", minimum=0)),
    returns="a polygon layer",
)
FILTER = ToolSpec(
    name="filter_rows",
    half="geojson",
    category="query",
    purpose="Keep the features whose numeric field compares to a value.",
    params=(
        LAYER,
        Param("field", "field", "Numeric field", of_layer="layer"),
        Param("op", "enum", "Comparison", enum=(">", ">=", "<", "<=", "==")),
        Param("value", "number", "Value to compare with"),
    ),
    returns="a layer with the matching features",
)
COUNT = ToolSpec(
    name="count_features",
    half="geojson",
    category="measure",
    purpose="Count the features of a layer.",
    params=(LAYER,),
    returns="a number",
)
AREA = ToolSpec(
    name="total_area",
    half="geojson",
    category="measure",
    purpose="Total area of a polygon layer in square metres.",
    params=(LAYER,),
    returns="a number",
)
DISTRACTORS = [
    ToolSpec(name=f"unused_tool_{i}", half="geojson", category="other", purpose=f"Unrelated tool {i}.",
             params=(LAYER,), returns="nothing")
    for i in range(6)
]  # fmt: skip


def _buffer(ctx, layer, distance):
    gdf = ctx.gdf(layer)
    out = gdf.copy()
    out["geometry"] = gdf.geometry.buffer(distance)
    return vector_result(
        ctx, out, f"{ctx.layers.get(layer).name}_buffer", f"Buffered {layer} by {distance} m", len(gdf)
    )


def _filter(ctx, layer, field, op, value):
    gdf = ctx.gdf(layer)
    col = gdf[field]
    mask = {">": col > value, ">=": col >= value, "<": col < value, "<=": col <= value, "==": col == value}[op]
    out = gdf[mask]
    return vector_result(ctx, out, f"{ctx.layers.get(layer).name}_filtered", f"Kept {field} {op} {value}", len(gdf))


def _count(ctx, layer):
    n = len(ctx.gdf(layer))
    return ToolResult(summary=f"{layer} has {n} features.", answer=f"{n} features", values={"count": n})


def _area(ctx, layer):
    total = float(ctx.gdf(layer).geometry.area.sum())
    return ToolResult(summary=f"Total area {total:.1f} m²", answer=f"{total:.1f} m²", values={"area_m2": total})


def _noop(ctx, layer):
    return ToolResult(summary="did nothing")


def tiny_registry() -> Registry:
    registry = Registry()
    for spec, impl in ((BUFFER, _buffer), (FILTER, _filter), (COUNT, _count), (AREA, _area)):
        registry.register(spec, impl)
    for spec in DISTRACTORS:
        registry.register(spec, _noop)
    return registry


@dataclass
class Plan:
    tool: str
    params: dict = field(default_factory=dict)
    complete: bool = False
    missing: list = field(default_factory=list)

    def to_json(self):
        return {"tool": self.tool, "params": self.params, "complete": self.complete, "missing": self.missing}


@dataclass
class Decision:
    route: str
    confidence: float
    tools: list
    plan: Plan | None = None

    def to_json(self):
        return {"route": self.route, "confidence": self.confidence, "tools": self.tools,
                "plan": self.plan.to_json() if self.plan else None}  # fmt: skip


class TinyRouter:
    """Returns a fixed decision and remembers what it was asked."""

    def __init__(self, route: str = "function", tools=None, plan: Plan | None = None, confidence: float = 0.4):
        names = tools or ["buffer", "filter_rows", "count_features", "total_area"] + [s.name for s in DISTRACTORS]
        self.decision = Decision(
            route, confidence, [{"name": n, "score": 1.0 / (i + 1)} for i, n in enumerate(names)], plan
        )
        self.asked: list[str] = []

    def route(self, request, infos, previous=None):
        self.asked.append(request)
        return self.decision


def make_layers(folder) -> dict[str, str]:
    """schools (5 points, pupils 100..500) and districts (2 squares of 1 km²), EPSG:32633, as GeoPackages."""
    import geopandas as gpd
    from shapely.geometry import Point, box

    folder.mkdir(parents=True, exist_ok=True)
    schools = gpd.GeoDataFrame(
        {"name": [f"School {c}" for c in "ABCDE"], "pupils": [100, 200, 300, 400, 500]},
        geometry=[Point(500000 + i * 1000, 5000000) for i in range(5)],
        crs="EPSG:32633",
    )
    districts = gpd.GeoDataFrame(
        {"district": ["North", "South"]},
        geometry=[box(500000, 5000000, 501000, 5001000), box(500000, 4999000, 501000, 5000000)],
        crs="EPSG:32633",
    )
    paths = {"schools": str(folder / "schools.gpkg"), "districts": str(folder / "districts.gpkg")}
    schools.to_file(paths["schools"], driver="GPKG")
    districts.to_file(paths["districts"], driver="GPKG")
    return paths


# -- fixtures and a runner shared by the agent tests ---------------------------------------------
KEY = "sk-test-NEVER-IN-REPORTS-1234"


@pytest.fixture
def server():
    srv = ScriptedServer().start()
    yield srv
    srv.stop()


@pytest.fixture
def layers(tmp_path):
    return make_layers(tmp_path / "data")


def config_for(server, **extra) -> AgentConfig:
    config = AgentConfig(base_url=server.url, model="scripted", api_key=KEY, timeout_s=20, top_k=3)
    config.backoff_s = 0.01
    config.max_retries = 2
    for key, value in extra.items():
        setattr(config, key, value)
    return config


def run(server, script, layers, tmp_path, router=None, request="buffer the big schools by 100 m", **extra):
    server.add(*(load_script(script) if isinstance(script, str) else script))
    return run_request(
        request,
        [layers["schools"], layers["districts"]],
        tmp_path / "out",
        config_for(server, **extra),
        registry=tiny_registry(),
        router=router or TinyRouter(),
    )
