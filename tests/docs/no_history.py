"""Fails when a line of the tree tells the project's history by numbered
work periods ("session N", "issue N", "#NN"): the tree describes the
project as it is; its history lives in git.

    no_history.py ROOT        scan the tracked (and new, unignored) files
    no_history.py --plant     plant one line of each kind in copies of real
                              files and require every one to be found

Text files are scanned line by line, .gz files decompressed; other binary
files (NUL bytes) are skipped. Exit 1 naming FILE:LINE and the line.
"""
import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

# A work period by number: "session N", "sessions N and M", "session-N",
# "issue N", "PR N", "pull request N", "ticket N" (N digits).
NUMBERED = re.compile(
    r"\b(?:sessions?|issues?|pr|pull requests?|tickets?)[ -]?#?\d+", re.IGNORECASE)
# "#NN" as a reference outside HDL (where #N is a delay); "[[rule]] #3"
# (the spec reader's entry numbers) and colour codes are not references.
HASH_REF = re.compile(r"(?<!\] )(?<![\w&/$])#\d{2}\b")
HDL_SUFFIXES = (".sv", ".svh", ".v", ".vh")
# Every match of NUMBERED contains one of these (case-folded), every match of
# HASH_REF a "#": a text without any of them has no match, and the regular
# expressions (seconds over the decompressed vector files) are not run on it.
KEYWORDS = ("session", "issue", "pr", "pull request", "ticket", "#")


def tree_files(root):
    """The files git tracks or would track; a plain walk outside git."""
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True, capture_output=True).stdout
        return sorted({p for p in out.decode().split("\0") if p})
    except (OSError, subprocess.CalledProcessError):
        found = []
        for base, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            found += [os.path.relpath(os.path.join(base, f), root) for f in files]
        return sorted(found)


def text_of(path):
    """The file's text, or None for a binary file."""
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            data = f.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def hits_in(rel, text):
    folded = text.casefold()
    if not any(keyword in folded for keyword in KEYWORDS):
        return []
    patterns = [NUMBERED] + ([] if rel.endswith(HDL_SUFFIXES) else [HASH_REF])
    hits = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            line_no = text.count("\n", 0, match.start()) + 1
            hits.append((rel, line_no, text[start:end if end >= 0 else None].strip()))
    return hits


def scan(root):
    hits = []
    for rel in tree_files(root):
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue  # deleted but still in the index
        text = text_of(path)
        if text is not None:
            hits += hits_in(rel, text)
    return sorted(set(hits))


def plant(root):
    """A copy of three real files, each with one planted line of history
    (spelled by concatenation so that this file itself stays clean)."""
    planted = {
        "tools/tcu_main.cpp": "// the flag since se" "ssion 7\n",
        "tests/CMakeLists.txt": "# measured in is" "sue 12\n",
        "README.md": "The figures of #" "23 hold.\n",
    }
    caught = True
    with tempfile.TemporaryDirectory() as tmp:
        for rel, line in planted.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(root, rel), os.path.join(tmp, rel))
            with open(os.path.join(tmp, rel), "a", encoding="utf-8") as f:
                f.write(line)
        found = {hit[0] for hit in scan(tmp)}
        for rel in planted:
            print(f"{'caught' if rel in found else 'MISSED'}: planted line in {rel}")
            caught &= rel in found
    return caught


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=".")
    parser.add_argument("--plant", action="store_true")
    args = parser.parse_args()
    if args.plant:
        return 0 if plant(args.root) else 1
    hits = scan(args.root)
    for rel, line_no, line in hits:
        print(f"{rel}:{line_no}: history by numbered work period: {line[:160]}")
    if hits:
        print(f"no_history: {len(hits)} line(s) tell history; describe the project as it is "
              "(history lives in git)", file=sys.stderr)
        return 1
    print("no_history: no line tells history by numbered work periods")
    return 0


if __name__ == "__main__":
    sys.exit(main())
