"""GeoPandas tools: conversion."""

from __future__ import annotations

from ._base import tool_list

TOOLS, tool = tool_list()
