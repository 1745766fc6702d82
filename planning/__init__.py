"""The tier-0 plan builder (layer 0, no qgis): fills a tool's parameters from what reading/ found, checks that every
word is explained, says the plan in words. Sits on reading/; the router calls it."""
