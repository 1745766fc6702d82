"""The few types the API check tracks through a script: modules, library functions and classes, and instances of
the classes whose constructors or readers say what they return (a GeoDataFrame from read_file, its GeoSeries)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

SAME = "same"  # the method returns the receiver's type (a GeoDataFrame's to_crs is a GeoDataFrame)
# What common calls return, by public name; a call with one of the `void` keywords returns something else.
FUNCTION_RETURNS = {
    "geopandas.read_file": "geopandas.GeoDataFrame", "geopandas.sjoin": "geopandas.GeoDataFrame",
    "geopandas.sjoin_nearest": "geopandas.GeoDataFrame", "geopandas.overlay": "geopandas.GeoDataFrame",
    "pandas.read_csv": "pandas.DataFrame", "pandas.read_excel": "pandas.DataFrame",
}  # fmt: skip
VOID_KEYWORDS = {"inplace", "chunksize", "iterator", "sheet_name"}
_GEO = ("geopandas.GeoDataFrame", "geopandas.GeoSeries")
METHOD_RETURNS = {
    **{(c, m): SAME for c in _GEO for m in ("to_crs", "copy", "set_crs", "explode", "dropna", "head", "tail",
                                            "sort_values")},
    ("geopandas.GeoDataFrame", "reset_index"): SAME,  # a GeoSeries' reset_index is a GeoDataFrame
    ("geopandas.GeoDataFrame", "query"): SAME,
    **{(c, m): "geopandas.GeoSeries" for c in _GEO for m in (
        "buffer", "centroid", "representative_point", "boundary", "envelope", "convex_hull", "simplify",
        "make_valid", "union", "intersection", "difference", "get_geometry")},
    ("geopandas.GeoDataFrame", "geometry"): "geopandas.GeoSeries",
    ("geopandas.GeoDataFrame", "dissolve"): "geopandas.GeoDataFrame",
    ("geopandas.GeoDataFrame", "set_geometry"): "geopandas.GeoDataFrame",
    ("pandas.DataFrame", "copy"): SAME,
}  # fmt: skip
KEEPS_DEGREES = {"copy", "explode", "dropna", "reset_index", "geometry", "centroid", "representative_point",
                 "boundary", "envelope", "convex_hull", "set_geometry", "dissolve", "make_valid", "head", "tail",
                 "sort_values", "query", "[mask]"}  # fmt: skip


@dataclass(frozen=True)
class T:
    """A tracked type: kind is module | class | func | inst; name is a module name or an index key."""

    kind: str
    name: str
    degrees: bool = False  # an instance read from a layer whose CRS is geographic, not reprojected since


class Resolver:
    """Types of expressions, from the script's imports and single-valued assignments (flow-insensitive: a name
    assigned values of different types, or bound any other way, is unknown)."""

    def __init__(self, tree: ast.AST, index: dict, degrees: set[str]):
        self.tree, self.index, self.degrees = tree, index, degrees
        self.objects, self.modules = index["objects"], index["modules"]
        self.bindings: dict[str, list] = {}  # name -> [T | ast.expr | None]
        self.parents: dict[int, ast.AST] = {}
        self.moved: set[str] = set()  # names whose CRS the script sets in place (to_crs(inplace=True), .crs = ...)
        self._memo: dict[str, T | None] = {}
        self._at: dict[tuple[str, int], T | None] = {}
        self.positions: dict[str, list] = {}  # name -> the top-level statement number of each binding, or None
        self.top: dict[int, int] = {}  # id(node) -> the number of the top-level statement it is in
        self.deferred: set[int] = set()  # id() of nodes inside function and class bodies (run later, if at all)
        self._statement: dict[int, int] = {}
        self._current: int | None = None
        self._busy: dict[str, T | None] = {}
        if "_classes" not in index:  # public class name -> key, once per index (16,000 objects)
            index["_classes"] = {e.get("name"): k for k, e in self.objects.items() if e.get("kind") == "class"}
        self._public = index["_classes"]
        self._collect()

    # -- bindings ------------------------------------------------------------------------------
    def _collect(self) -> None:
        simple = set()
        for number, statement in enumerate(getattr(self.tree, "body", [])):
            self._statement[id(statement)] = number
            for node in ast.walk(statement):
                self.top[id(node)] = number
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                    self.deferred.update(id(n) for n in ast.walk(node) if n is not node)
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
            self._current = self._statement.get(id(node))
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                self._bind(node.targets[0].id, node.value)
                simple.add(id(node.targets[0]))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                self._bind(node.target.id, node.value)
                simple.add(id(node.target))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self._bind(alias.asname, self._module(alias.name))
                    else:
                        self._bind(alias.name.split(".")[0], self._module(alias.name.split(".")[0]))
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    self._bind(alias.asname or alias.name, self._from(node.module or "", alias.name, node.level))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._bind(node.name, None)
            elif isinstance(node, ast.arg):
                self._bind(node.arg, None)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                self._bind(node.name, None)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                for name in node.names:
                    self._bind(name, None)
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
                self._bind(node.name, None)
            elif isinstance(node, ast.MatchMapping) and node.rest:
                self._bind(node.rest, None)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                inplace = any(k.arg == "inplace" for k in node.keywords)
                if inplace and isinstance(node.func.value, ast.Name):
                    self.moved.add(node.func.value.id)
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
                self.moved.add(node.value.id)  # gdf.crs = ..., gdf.geometry = ...
        self._current = None
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in simple:
                self._bind(node.id, None)  # loop targets, unpacking, augmented assignment, walrus, del

    def _bind(self, name: str, value) -> None:
        """`value` bound to `name` by the top-level statement being walked (its number), or deeper (None)."""
        self.bindings.setdefault(name, []).append(value)
        self.positions.setdefault(name, []).append(self._current)

    def _module(self, name: str) -> T | None:
        return T("module", name) if name in self.modules else None

    def _from(self, module: str, name: str, level: int) -> T | None:
        if level:
            return None
        if f"{module}.{name}" in self.modules:
            return T("module", f"{module}.{name}")
        entry = self.modules.get(module)
        return self._key_type(entry["attrs"].get(name)) if entry else None

    def _key_type(self, key: str | None) -> T | None:
        if not key:
            return None
        if key.startswith("module:"):
            return self._module(key[7:])
        kind = (self.objects.get(key) or {}).get("kind")
        return T("class" if kind == "class" else "func", key) if kind in ("class", "function") else None

    # -- types ---------------------------------------------------------------------------------
    def type_of(self, node: ast.AST) -> T | None:
        if isinstance(node, ast.Name):
            return self._name_at(node)
        if isinstance(node, ast.Attribute):
            return self._member(self.type_of(node.value), node.attr)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript) and _is_mask(node.slice):  # gdf[gdf['pop'] > 10]: the same rows' type
            base = self.type_of(node.value)
            if base is not None and base.kind == "inst":
                public = (self.objects.get(base.name) or {}).get("name")
                if public in ("geopandas.GeoDataFrame", "geopandas.GeoSeries", "pandas.DataFrame"):
                    return self._returns(base, "[mask]", SAME)
        return None

    def _name_at(self, node: ast.Name) -> T | None:
        """A straight-line script (every binding of the name a top-level statement) gives the name the type of its
        last binding before the use; anything else falls back to the type all its bindings agree on."""
        name, positions = node.id, self.positions.get(node.id) or []
        if not positions or None in positions or id(node) not in self.top or id(node) in self.deferred:
            return self._name(name)
        use = self.top[id(node)]
        prior = [i for i, at in enumerate(positions) if at < use]
        if not prior:
            return None
        last = prior[-1]
        if (name, last) not in self._at:
            self._at[(name, last)] = None  # a cycle cannot happen (earlier statements only), but stay safe
            value = self.bindings[name][last]
            found = value if isinstance(value, T) or value is None else self.type_of(value)
            if found is not None and name in self.moved:
                found = T(found.kind, found.name)
            self._at[(name, last)] = found
        return self._at[(name, last)]

    def _name(self, name: str) -> T | None:
        if name in self._busy:  # a self-reference (gdf = gdf.to_crs(...)): the type its other bindings give
            return self._busy[name]
        if name not in self._memo:
            values = self.bindings.get(name)
            if not values or any(v is None for v in values):
                self._memo[name] = None
                return None
            first = next((v for v in values if isinstance(v, T)), None)
            self._busy[name] = first
            types = [v if isinstance(v, T) else self.type_of(v) for v in values]
            if first is None and types and types[0] is not None:  # seed with the first binding, then once more
                self._busy[name] = types[0]
                types = [v if isinstance(v, T) else self.type_of(v) for v in values]
            del self._busy[name]
            same = all(t is not None and (t.kind, t.name) == (types[0].kind, types[0].name) for t in types)
            if not same:
                self._memo[name] = None
            else:
                degrees = all(t.degrees for t in types) and name not in self.moved
                self._memo[name] = T(types[0].kind, types[0].name, degrees)
        return self._memo[name]

    def _member(self, base: T | None, attr: str) -> T | None:
        if base is None:
            return None
        if base.kind == "module":
            if f"{base.name}.{attr}" in self.modules:
                return T("module", f"{base.name}.{attr}")
            entry = self.modules.get(base.name)
            return self._key_type(entry["attrs"].get(attr)) if entry else None
        entry = self.objects.get(base.name) or {}
        kind = (entry.get("attrs") or {}).get(attr)
        if kind == "method" and f"{base.name}.{attr}" in self.objects:
            return T("func", f"{base.name}.{attr}") if base.kind == "class" else T("method", f"{base.name}.{attr}")
        if kind == "property" and base.kind == "inst":
            return self._returns(base, attr)
        return None

    def _call(self, node: ast.Call) -> T | None:
        if any(k.arg in VOID_KEYWORDS for k in node.keywords):
            return None
        func = self.type_of(node.func)
        if func is None:
            return None
        if func.kind == "class":
            own_new = (self.objects.get(func.name) or {}).get("own_new", True)
            return None if own_new else T("inst", func.name)
        if func.kind == "method" and isinstance(node.func, ast.Attribute):
            return self._returns(self.type_of(node.func.value), node.func.attr)
        if func.kind == "func":
            public = (self.objects.get(func.name) or {}).get("name")
            returns = self._public.get(FUNCTION_RETURNS.get(public, ""))
            if returns is None:
                return None
            path = self.constant(node.args[0]) if node.args else None
            return T("inst", returns, degrees=public == "geopandas.read_file" and path in self.degrees)
        return None

    def _returns(self, receiver: T | None, attr: str, returns: str | None = None) -> T | None:
        """What a method or property of an instance returns, when the table says."""
        if receiver is None or receiver.kind != "inst":
            return None
        public = (self.objects.get(receiver.name) or {}).get("name")
        returns = returns or METHOD_RETURNS.get((public, attr))
        if returns is None:
            return None
        key = receiver.name if returns == SAME else self._public.get(returns)
        return T("inst", key, receiver.degrees and attr in KEEPS_DEGREES) if key else None

    # -- constants -----------------------------------------------------------------------------
    def constant(self, node: ast.AST):
        """A string constant, directly or through a name assigned it once."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            values = self.bindings.get(node.id) or []
            if len(values) == 1 and isinstance(values[0], ast.Constant) and isinstance(values[0].value, str):
                return values[0].value
        return None

    def mentioned_elsewhere(self, text: str, call: ast.Call) -> bool:
        """The string appears in the script other than as this call's path (written first, built into a name)."""
        first = call.args[0] if call.args else None
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Constant) and node.value == text and node is not first:
                parent = self.parents.get(id(node))
                if not (isinstance(parent, ast.Assign) and isinstance(first, ast.Name)):
                    return True
        return False


def _is_mask(node: ast.AST) -> bool:
    """A row filter: a comparison, a negated or combined one (`~(a > 1) & (b == 2)`), or an `isin(...)`."""
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not)):
        return _is_mask(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):
        return _is_mask(node.left) and _is_mask(node.right)
    if isinstance(node, ast.BoolOp):
        return all(_is_mask(v) for v in node.values)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "isin"
