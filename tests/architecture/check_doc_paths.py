#!/usr/bin/env python3
"""Every repository path the documentation and the comments mention exists (docs/architecture.md).

Scanned: docs/*.md and README.md (their text and their relative links), the comments and string
literals of the C++ files under include/, src/, apps/, python/, tests/ and bench/, and the whole text of the
Python files under tests/ and of every CMakeLists.txt. A path mention is a word with a slash in it
that is one of

  docs/x.md, include/..., src/..., tests/..., apps/..., bench/..., scripts/..., models/..., tools/...
      resolved against the repository root (a directory is fine, a `*` must match something);
  dynid/MODULE/x.hpp (as in an #include)
      resolved against include/;
  any other DIR/x.hpp, DIR/x.cpp, DIR/x.h, DIR/x.md, DIR/x.py (ident/base_parameters.hpp,
  support/test_models.hpp, ../support/scratch_files.hpp)
      resolved against include/dynid/, src/, tests/ or the mentioning file's directory (any one);
  a relative Markdown link [text](target)
      resolved against the Markdown file's directory.

Not checked: URLs, absolute paths, what a user creates (paths under dynid-demo/, build/, out/ ...),
and paths with a placeholder in them (<...>, {...}, `...`, $VAR, an upper-case word such as DIR,
ROBOT.yaml or MODULE). A mention of a file that does not exist fails the check with the file, the
line and the path.

Usage: check_doc_paths.py [ROOT]   (default: the repository this file is in)
"""
import glob
import pathlib
import re
import sys

# dynid's modules (tests/architecture/check_include_layers.py has their layering).
MODULES = {"core", "spatial", "model", "dynamics", "io", "mocap", "report", "ident", "locomotion", "data", "sim",
           "scenarios", "pipeline", "actuator"}
# Top-level folders of the repository: a mention starting with one is relative to the root.
ROOT_DIRS = {"docs", "include", "src", "tests", "apps", "bench", "scripts", "models", "tools", "fuzz", "python"}
# First folders of what a user's command writes: not in the repository.
OUTPUT_DIRS = {"dynid-demo", "build", "out", "output", "tmp"}
SOURCE_SUFFIXES = {".hpp", ".cpp", ".h"}
CXX_SUFFIXES = {".hpp", ".cpp", ".h", ".cc", ".hh", ".cxx"}

# A path-like word: components of letters, digits, _ . - (and * for globs) joined by slashes. It must
# not continue a longer word, a path, a variable (${...}/x) or a URL.
PATH = re.compile(r"(?<![\w./\-$}{@:~*])(\*?[\w.\-*]+(?:/[\w.\-*]*)+)")
URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://\S+")
MD_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
PLACEHOLDER_WORD = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")


def cxx_comments_and_strings(text: str) -> str:
    """The text of the comments and string literals of C++ source, everything else blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    keep = lambda s: out.append(s)
    blank = lambda s: out.append("".join(c if c == "\n" else " " for c in s))
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            keep(text[i:j])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            keep(text[i:j])
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i + 2)
            delim = text[i + 2:k] if k >= 0 else ""
            j = text.find(")" + delim + '"', k + 1) if k >= 0 else -1
            j = n if j < 0 else j + len(delim) + 2
            keep(text[i:j])
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            keep(text[i:j])
            i = j
        elif c == "'" and not (i > 0 and text[i - 1].isalnum()):  # a character literal, not 1'000
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            blank(text[i:j])
            i = j
        else:
            j = i
            while j < n and text[j] not in "/\"'R":
                j += 1
            if j == i:
                j = i + 1
            blank(text[i:j])
            i = j
    return "".join(out)


def is_placeholder(path: str) -> bool:
    if any(ch in path for ch in "<>{}$") or "..." in path:
        return True
    for part in path.split("/"):
        stem = part.split(".")[0]
        if PLACEHOLDER_WORD.match(stem) and stem not in {"README", "CMakeLists"}:
            return True
    return False


def exists(base: pathlib.Path, rel: str) -> bool:
    if "*" in rel:
        return bool(glob.glob(str(base / rel)))
    return (base / rel).exists()


def candidates(path: str, source: pathlib.Path, root: pathlib.Path):
    """The places a mention may point to, or None when it is not a repository path dynid checks."""
    parts = path.split("/")
    first = parts[0]
    if first in OUTPUT_DIRS:
        return None
    if first in ROOT_DIRS:
        return [root]
    if first == "dynid" and len(parts) > 2 and parts[1] in MODULES:
        return [root / "include"]
    if pathlib.PurePosixPath(path).suffix in SOURCE_SUFFIXES | {".md", ".py"}:
        return [root / "include" / "dynid", root / "src", root / "tests", source.parent]
    return None


def mentions(line: str):
    """Path-like words of one line, URLs removed, trailing punctuation stripped."""
    line = URL.sub(" ", line)
    for m in PATH.finditer(line):
        word = m.group(1).strip("*").rstrip(".,;:")
        if word.startswith("/") or not word.rstrip("/").count("/") and not word.endswith("/"):
            continue
        yield word.rstrip("/")


def check_text(root: pathlib.Path, source: pathlib.Path, text: str, markdown: bool):
    problems = []
    for number, line in enumerate(text.splitlines(), start=1):
        seen = set()
        if markdown:
            for m in MD_LINK.finditer(line):
                target = m.group(1).split("#")[0]
                if not target or URL.match(m.group(1)) or target.startswith(("/", "mailto:")) or is_placeholder(target):
                    continue
                seen.add(target)
                if not (source.parent / target).exists():
                    problems.append((number, target))
        for word in mentions(line):
            if word in seen or is_placeholder(word):
                continue
            bases = candidates(word, source, root)
            if bases is None:
                continue
            if not any(exists(base, word) for base in bases):
                problems.append((number, word))
    return problems


def scanned_files(root: pathlib.Path):
    this = pathlib.Path(__file__).resolve()
    files = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    for top in ("include", "src", "apps", "python", "tests", "bench", "fuzz"):
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and (path.suffix in CXX_SUFFIXES or path.suffix == ".py" or path.name == "CMakeLists.txt"):
                files.append(path)
    files.append(root / "CMakeLists.txt")
    return [f for f in files if f.is_file() and f.resolve() != this]


def check(root: pathlib.Path):
    problems = []
    files = scanned_files(root)
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix in CXX_SUFFIXES:
            text = cxx_comments_and_strings(text)
        rel = path.relative_to(root)
        for number, word in check_text(root, path, text, path.suffix == ".md"):
            problems.append(f"{rel}:{number}: {word}")
    return problems, len(files)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]).resolve()
    problems, count = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"doc paths: {len(problems)} mention(s) of missing files in {count} files")
        return 1
    print(f"doc paths: {count} files, every path they mention exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
