"""The text readers (layer 0, no qgis): numbers, distances, CRSs, layers and fields, conditions, formats, read from
the request with no model. They import nothing above them (languages/, function_lib/ only)."""
