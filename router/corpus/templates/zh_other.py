"""placeholder"""
CHAINS = []
CODEGEN = []
CHAT = []
