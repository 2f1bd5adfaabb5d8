#!/usr/bin/env python3
"""Replaces the README's generated block (between the tables markers) with tables.py's output.
Usage: fill_readme.py README.md RUN.json [TORCH.json]"""
import subprocess
import sys
from pathlib import Path

readme = Path(sys.argv[1])
tables = subprocess.run([sys.executable, str(Path(__file__).with_name("tables.py")), *sys.argv[2:]],
                        check=True, capture_output=True, text=True).stdout
text = readme.read_text()
begin, end = "<!-- tables:begin -->", "<!-- tables:end -->"
i, j = text.index(begin) + len(begin), text.index(end)
readme.write_text(text[:i] + "\n" + tables.strip() + "\n" + text[j:])
