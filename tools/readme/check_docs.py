#!/usr/bin/env python3
"""Checks README.md and docs/ against the repository and the program, so the front door cannot drift.

Usage: check_docs.py ARCHBENCH_EXE REPO_ROOT

Fails (exit 1), naming each problem, when:
- README.md is longer than 200 lines;
- a relative link in README.md or docs/**/*.md points to a file that does not exist, or to a heading anchor the
  target does not have;
- a Markdown file of the repository links or refers to ../shared or the session's shared reference
  directory (not part of the repository);
- a command written in a code span or code block of README.md or docs/**/*.md (`archbench SUB ... --option`, or a
  span that starts with `SUB --option`) names a subcommand or an option that `ARCHBENCH_EXE SUB --help` does not
  list (`baseline update` included);
- the exit-code table of docs/exit-codes.md disagrees with tools/archbench/exit_codes.hpp;
- README.md or docs/README.md gives an operator count ("223 operators") other than `archbench list`'s;
- README.md or docs/ (not docs/reference/) names a path of the repository in a code span that does not exist;
- a source file (C++, CUDA, shell, Python, CMake) cites a reference page by its old section numbers
  (compat.md with a section sign and number) or the session's shared reference directory, names a docs/ page that does not exist, or
  quotes a section title (`docs/reference/compat.md, "Fatbin and cubin layout"`) that the page does not have.
Exit 2 when ARCHBENCH_EXE cannot be run.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

README_MAX_LINES = 200
SKIP_DIRS = {".git", "node_modules"}
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
OPTION = re.compile(r"^--[A-Za-z0-9][A-Za-z0-9-]*")


class Doc:
    """A Markdown file split into prose (code spans blanked) and code (spans and fenced blocks), with lines."""

    def __init__(self, path):
        self.path = path
        self.text = path.read_text(encoding="utf-8")
        self.code = []  # (line, text, kind): kind "span" or the fence's language
        self.headings = []
        prose_lines = []
        fence = None
        start = 0
        for n, line in enumerate(self.text.split("\n"), 1):
            m = FENCE.match(line)
            if fence is None and m:
                fence, lang, start, block = m.group(1), m.group(2) or "", n, []
                prose_lines.append("")
                continue
            if fence is not None:
                if line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
                    # One entry per logical line (backslash continuations joined), numbered where it starts.
                    first = None
                    for k, text in enumerate(block):
                        first = start + 1 + k if first is None else first
                        logical = text if first == start + 1 + k else logical + "\n" + text
                        if not text.endswith("\\"):
                            self.code.append((first, logical, lang))
                            first = None
                    if first is not None:
                        self.code.append((first, logical, lang))
                    fence = None
                else:
                    block.append(line)
                prose_lines.append("")
                continue
            prose_lines.append(line)
            h = HEADING.match(line)
            if h:
                self.headings.append(h.group(2))
        prose = "\n".join(prose_lines)
        for m in CODE_SPAN.finditer(prose):
            self.code.append((prose.count("\n", 0, m.start()) + 1, m.group(2), "span"))
        # Prose with code spans blanked (newlines kept, so line numbers stay right).
        self.prose = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose)

    def line_of(self, text, pos):
        return text.count("\n", 0, pos) + 1

    def anchors(self):
        seen, out = {}, set()
        for h in self.headings:
            s = slug(h)
            k = seen.get(s, 0)
            seen[s] = k + 1
            out.add(s if k == 0 else f"{s}-{k}")
        for m in re.finditer(r"<a\s+(?:id|name)=\"([^\"]+)\"", self.text):
            out.add(m.group(1))
        return out


def slug(heading):
    """GitHub's heading anchor: link markup reduced to its text, lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


SOURCE_SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh", ".sh", ".py", ".cmake", ".txt")
OLD_CITATION = re.compile(r"shared[/]reference|\b(?:compat|workload|doctor|measurement|stack)\.md,? (?:§|section \d)")
# docs/x.md, "Title" or docs/x.md ("Title": the title may continue on the next comment line.
DOCS_CITATION = re.compile(r"\b(docs/[\w/.-]+?\.md)(?:#[\w-]+)?(?:,? \(?\"((?:[^\"\n]|\n\s*(?://|#)\s*)+)\")?")


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build")
                             and not (Path(dirpath) == root and d.startswith(".")))
        for f in sorted(filenames):
            if f.endswith(SOURCE_SUFFIXES):
                yield Path(dirpath) / f


def markdown_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build")
                             and not (Path(dirpath) == root and d.startswith(".")))
        for f in sorted(filenames):
            if f.endswith(".md"):
                yield Path(dirpath) / f


# --- the program's command line ---------------------------------------------------------------------------------

def help_text(exe, args):
    try:
        r = subprocess.run([exe, *args, "--help"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise SystemExit(f"check_docs: cannot run {exe}: {e}") from None
    return r.stdout + r.stderr


def parse_help(text):
    """(options, subcommands) listed in a CLI11 help text."""
    options, subs, section = {"--help"}, set(), None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1].strip().lower()
            continue
        if section == "options":
            head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
            for part in head.split(","):
                m = OPTION.match(part.strip())
                if m:
                    options.add(m.group(0))
        elif section == "subcommands":
            m = re.match(r"^\s+([a-z][a-z0-9-]*)\s", line + " ")
            if m:
                subs.add(m.group(1))
    return options, subs


def cli_model(exe):
    """{command path tuple: options}; () is the top level."""
    top_opts, subs = parse_help(help_text(exe, []))
    if not subs:
        raise SystemExit(f"check_docs: {exe} --help lists no subcommands; is it archbench?")
    model = {(): top_opts}
    for s in sorted(subs):
        opts, nested = parse_help(help_text(exe, [s]))
        model[(s,)] = opts
        for n in sorted(nested):
            model[(s, n)] = parse_help(help_text(exe, [s, n]))[0]
    return model


def segments(code):
    """Shell-ish command segments: split at unquoted ; && || | ( ) ` and comments; backslash-newlines joined."""
    code = code.replace("\\\n", " ")
    out, cur, quote, i = [], "", None, 0
    while i < len(code):
        c = code[i]
        if quote:
            cur += c
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            cur += c
        elif c == "#" and (not cur or cur[-1].isspace()):
            while i < len(code) and code[i] != "\n":
                i += 1
            continue
        elif c in ";|()`\n&":
            out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    out.append(cur)
    return [s.split() for s in out if s.strip()]


def command_problems(tokens, model, allow_bare):
    """Problems of one command segment; tokens[0] may be archbench itself (or, for a span, a subcommand)."""
    subcommands = {k[0] for k in model if len(k) == 1}
    k = 0  # skip a prompt, sudo/env/time and VAR=value prefixes: archbench must be in command position
    while k < len(tokens) and re.fullmatch(r"\$|sudo|env|time|[A-Za-z_][A-Za-z0-9_]*=\S*", tokens[k]):
        k += 1
    if k < len(tokens) and os.path.basename(tokens[k].strip("'\"")) == "archbench":
        rest = tokens[k + 1:]
    elif allow_bare and tokens and tokens[0] in subcommands:
        rest = tokens
    else:
        return []
    path = ()
    if rest and not rest[0].startswith("-"):
        word = rest[0].rstrip(":")
        if word not in subcommands:
            return [f"unknown subcommand 'archbench {word}'"] if re.fullmatch(r"[a-z][a-z-]+", word) else []
        path = (word,)
        rest = rest[1:]
        nested = {k[1] for k in model if len(k) == 2 and k[0] == word}
        if nested and rest and not rest[0].startswith("-"):
            if rest[0] not in nested:
                return [f"unknown subcommand 'archbench {word} {rest[0]}'"]
            path = (word, rest[0])
            rest = rest[1:]
    allowed = model[path]
    name = " ".join(("archbench",) + path)
    problems = []
    for t in rest:
        m = OPTION.match(t)
        if m and m.group(0) not in allowed:
            problems.append(f"'{name} {m.group(0)}': {name} --help lists no {m.group(0)}")
    return problems


# --- the checks --------------------------------------------------------------------------------------------------

def operator_count(exe):
    """How many operators `archbench list` lists; None when it cannot say (then nothing is compared)."""
    try:
        out = subprocess.run([exe, "list", "--json", "-"], capture_output=True, text=True, timeout=60)
        return len(json.loads(out.stdout)["operators"]) if out.returncode == 0 else None
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        return None


def check(exe, root):
    problems = []

    def problem(path, line, text):
        problems.append(f"{path.relative_to(root)}:{line}: {text}")

    readme = root / "README.md"
    docs = sorted((root / "docs").rglob("*.md")) if (root / "docs").is_dir() else []
    checked = [readme] + docs
    parsed = {p: Doc(p) for p in checked if p.exists()}
    if not readme.exists():
        problems.append("README.md: missing")
    else:
        n = len(readme.read_text(encoding="utf-8").splitlines())
        if n > README_MAX_LINES:
            problem(readme, n, f"README.md has {n} lines, more than {README_MAX_LINES}")

    # The front door's operator count: README.md and docs/README.md say how many operators there are (dated
    # measurements elsewhere in docs/ keep the count they had); each "N operators" there is `archbench list`'s.
    # A fenced block is a recorded report, dated by the text above it: its counts are the run's.
    listed = operator_count(exe)
    for path in (readme, root / "docs" / "README.md"):
        if listed is None or not path.exists():
            continue
        fenced = False
        for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if text.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                continue
            for m in re.finditer(r"\b(\d{2,4}) operators?\b", text):
                if int(m.group(1)) != listed:
                    problem(path, i, f"says {m.group(0)}; `archbench list` lists {listed}")

    # Paths of this repository named in code spans (`harness/history/change_points.cpp`, or a module without its
    # extension, `harness/run/image_probe`) must exist. docs/reference/ quotes other projects' paths, and a
    # `tools/...` path is ours only when its folder is one of tools/.
    ours = re.compile(r"`((?:harness|kernels|suites|baselines|ci|tools)/[A-Za-z0-9_./-]+)`")
    for path, doc in parsed.items():
        if "reference" in path.relative_to(root).parts:
            continue
        for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in ours.finditer(text):
                named = m.group(1).rstrip("/")
                parts = named.split("/")
                if parts[0] == "tools" and (len(parts) < 3 or not (root / "tools" / parts[1]).is_dir()):
                    continue
                if not any((root / (named + ext)).exists() for ext in ("", ".hpp", ".cpp", ".cu", ".py", ".sh")):
                    problem(path, i, f"names `{named}`, which does not exist")

    # Links and anchors.
    anchor_cache = {}
    for path, doc in parsed.items():
        targets = [(m.group(1), doc.line_of(doc.prose, m.start())) for m in LINK.finditer(doc.prose)]
        targets += [(m.group(1), doc.line_of(doc.prose, m.start())) for m in REF_DEF.finditer(doc.prose)]
        for target, line in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                continue
            file_part, _, frag = target.partition("#")
            file_part = file_part.split("?")[0]
            dest = (path.parent / file_part).resolve() if file_part else path.resolve()
            if not dest.exists():
                problem(path, line, f"link to '{target}': {file_part} does not exist")
                continue
            if frag and dest.is_file() and dest.suffix == ".md":
                if dest not in anchor_cache:
                    anchor_cache[dest] = Doc(dest).anchors()
                if frag not in anchor_cache[dest]:
                    problem(path, line, f"link to '{target}': no heading with anchor #{frag} in {file_part or path.name}")

    # Nothing may point at the session's shared reference files: they are not in the repository.
    for path in markdown_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r"\.\./shared\b|shared[/]reference", text):
            problem(path, text.count("\n", 0, m.start()) + 1,
                    f"refers to '{m.group(0)}', which is not part of the repository")

    # Commands in code against the program's help.
    model = cli_model(exe)
    for path, doc in parsed.items():
        for line, code, kind in doc.code:
            if kind not in ("span", "", "sh", "bash", "shell", "console", "text"):
                continue
            for tokens in segments(code):
                for p in command_problems(tokens, model, allow_bare=kind == "span"):
                    problem(path, line, p)

    # Citations in source comments and strings: pages of this repository, by section title.
    for path in source_files(root):
        if path.resolve() == Path(__file__).resolve():  # this file names the patterns it looks for
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in OLD_CITATION.finditer(text):
            problem(path, text.count("\n", 0, m.start()) + 1,
                    f"cites '{m.group(0)}', which is not in the repository: cite a docs/ page and section title")
        for m in DOCS_CITATION.finditer(text):
            page = root / m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            if not page.is_file():
                problem(path, line, f"cites {m.group(1)}, which does not exist")
            elif m.group(2):
                title = " ".join(re.sub(r"\n\s*(?://|#)", " ", m.group(2)).split())  # wrapped over comment lines
                if title not in {" ".join(h.split()) for h in Doc(page).headings}:
                    problem(path, line, f"cites {m.group(1)}, \"{title}\": no such section there")

    # The exit-code table against the enum that defines the codes.
    header = root / "tools" / "archbench" / "exit_codes.hpp"
    page = root / "docs" / "exit-codes.md"
    if not header.exists() or not page.exists():
        problems.append(f"{'docs/exit-codes.md' if header.exists() else 'tools/archbench/exit_codes.hpp'}: missing")
    else:
        enum = {int(v): k for k, v in re.findall(r"\b(k\w+)\s*=\s*(\d+)\s*,", header.read_text())}
        rows, in_table = {}, False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
            if cells and cells[0] == "code" and any("exit_codes.hpp" in c for c in cells):
                in_table = True
                continue
            if in_table and not cells:
                break
            if in_table and re.fullmatch(r"-?\d+", cells[0]):
                rows[int(cells[0])] = (cells[1].strip("`"), n)
        if not rows:
            problem(page, 1, "no table with a 'code' column and a column naming exit_codes.hpp")
        for code in sorted(set(enum) | set(rows)):
            if code not in rows:
                problem(page, 1, f"exit code {code} ({enum[code]} in exit_codes.hpp) is not in the table")
            elif code not in enum:
                problem(page, rows[code][1], f"exit code {code} is in the table but not in exit_codes.hpp")
            elif rows[code][0] != enum[code]:
                problem(page, rows[code][1], f"exit code {code} is {rows[code][0]} here, {enum[code]} in exit_codes.hpp")
        missing = [c for c in range(6) if c not in enum]
        if missing:
            problems.append(f"tools/archbench/exit_codes.hpp: codes {missing} are not defined")
    return problems, len(parsed)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    exe, root = sys.argv[1], Path(sys.argv[2]).resolve()
    if not os.access(exe, os.X_OK):
        print(f"check_docs: {exe} is not an executable", file=sys.stderr)
        return 2
    problems, files = check(exe, root)
    for p in problems:
        print(f"check_docs: {p}")
    if problems:
        print(f"check_docs: {len(problems)} problem(s) in README.md, docs/ and the sources' citations")
        return 1
    print(f"check_docs: OK: {files} files (README.md and docs/), links, commands, exit codes and the sources' citations agree with {exe}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
