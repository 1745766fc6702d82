"""placeholder"""
FUNCTION = {}
