#!/usr/bin/env python3
"""Paired, alternating runs of two commands (or one command with two binaries), for a shared, noisy machine.

    scripts/bench/alternate.py RUNS NAME 'PREPARE' 'COMMAND with {bin}' BIN_A BIN_B

Each pair runs A and B once, the order flipping every pair; PREPARE (a shell line, may be '') runs before each.
Prints the medians of wall time, of CPU (user + sys) and of peak memory (maximum RSS), all from wait4, for each, and the median of the per-pair ratios
B/A, which a load change during the run moves far less than the medians. With COMMAND '{bin}', BIN_A and BIN_B
are whole commands. For example:

    scripts/bench/alternate.py 5 import 'rm -f /tmp/s.sqlite*' '{bin} import --store /tmp/s.sqlite F.ofx' OLD NEW
    scripts/bench/alternate.py 5 floor 'rm -f /tmp/*.sqlite*' '{bin}' \\
        'bench-out/sqlite_min_floor /tmp/f.sqlite 200000' 'coffer import --store /tmp/s.sqlite F.ofx'
"""
import os, shlex, statistics, subprocess, sys, time

runs, name, prepare, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
bins = sys.argv[5:7]
res = {b: [] for b in bins}
for i in range(runs):
    for b in (bins if i % 2 == 0 else bins[::-1]):
        if prepare:
            subprocess.run(prepare, shell=True, check=True)
        argv = shlex.split(cmd.format(bin=b))
        with open(os.devnull, "w") as out:
            t0 = time.perf_counter()
            p = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t0
        if status != 0:
            sys.exit(f"{name}: {b} exited with status {status}")
        res[b].append((wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024))
a, b = bins
def med(x, k): return statistics.median(r[k] for r in res[x])
def ratio(k): return statistics.median(y[k] / x[k] for x, y in zip(res[a], res[b]))
print(f"{name}: A {a}: wall {med(a, 0):.3f}s cpu {med(a, 1):.3f}s peak {med(a, 2):.1f} MiB"
      f" | B {b}: wall {med(b, 0):.3f}s cpu {med(b, 1):.3f}s peak {med(b, 2):.1f} MiB"
      f" | B/A per pair: wall {ratio(0):.3f} cpu {ratio(1):.3f}")
