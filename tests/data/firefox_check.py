#!/usr/bin/env python3
"""Checks a Firefox Profiler processed-profile JSON (argv[1]) for the tables
the format requires and their consistency; prints "key value" lines the
tests compare: threads, samples (weighted), per-thread names."""
import json
import sys

prof = json.load(open(sys.argv[1]))
errors = []
meta = prof["meta"]
for k in ("interval", "startTime", "version", "preprocessedProfileVersion", "categories", "product"):
    if k not in meta:
        errors.append("meta." + k)
TABLES = {
    "samples": ["stack", "time"],
    "stackTable": ["frame", "category", "subcategory", "prefix"],
    "frameTable": ["address", "inlineDepth", "category", "subcategory", "func", "nativeSymbol",
                   "innerWindowID", "implementation", "line", "column"],
    "funcTable": ["isJS", "relevantForJS", "name", "resource", "fileName", "lineNumber", "columnNumber"],
    "resourceTable": ["lib", "name", "host", "type"],
    "nativeSymbols": ["libIndex", "address", "name", "functionSize"],
    "markers": ["data", "name", "startTime", "endTime", "phase", "category"],
}
total = 0
names = []
for t in prof["threads"]:
    for table, cols in TABLES.items():
        tab = t[table]
        for c in cols:
            if not isinstance(tab.get(c), list) or len(tab[c]) != tab["length"]:
                errors.append("%s.%s length" % (table, c))
    strings = t["stringArray"]
    st, ft, fn, rt = t["stackTable"], t["frameTable"], t["funcTable"], t["resourceTable"]
    for i, (f, pre) in enumerate(zip(st["frame"], st["prefix"])):
        if not 0 <= f < ft["length"] or not (pre is None or 0 <= pre < i):
            errors.append("stack %d" % i)
    for f in ft["func"]:
        if not 0 <= f < fn["length"]:
            errors.append("frame func")
    for n, r in zip(fn["name"], fn["resource"]):
        if not 0 <= n < len(strings) or not -1 <= r < rt["length"]:
            errors.append("func name/resource")
    for lib in rt["lib"]:
        if lib is not None and not 0 <= lib < len(prof["libs"]):
            errors.append("resource lib")
    s = t["samples"]
    for x in s["stack"]:
        if not 0 <= x < st["length"]:
            errors.append("sample stack")
    w = s.get("weight")
    total += sum(w) if w else s["length"]
    times = s["time"]
    if any(b < a for a, b in zip(times, times[1:])):
        errors.append("sample times decrease")
    names.append("%s:%s:%s" % (t["name"], t["pid"], t["tid"]))
print("errors", ",".join(sorted(set(errors))) or "none")
print("threads", len(prof["threads"]))
print("samples", total)
print("names", ",".join(sorted(names)))
print("libs", len(prof["libs"]))
