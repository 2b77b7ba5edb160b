#!/usr/bin/env python3
"""Runs commands alternately (A B C, A B C, ... with the order turned each round, so no
command always follows the same one) and reports each one's median wall time and CPU time
(user + system, of every process it started, also those it left running), with quartiles, and the ratio of each median
to the first command's.

    python3 benches/alternate.py --runs 15 --warmup 1 NAME='COMMAND' NAME='COMMAND' ...

A command is run by the shell; its output is discarded and a failure stops the benchmark.
On a machine shared with other work, compare the ratios of runs made side by side rather
than times taken at different moments.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time


def become_subreaper():
    """Processes a command leaves behind (safari's typesetting worker, reaped on a thread
    that ends with safari) become this process's children, so their CPU time is counted and
    the next command starts only once they are gone."""
    try:
        import ctypes

        PR_SET_CHILD_SUBREAPER = 36
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def reap_orphans():
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def run(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, shell=True, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    reap_orphans()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def quartiles(values):
    if len(values) < 2:
        return values[0], values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], statistics.median(values), q[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = parser.parse_args()
    become_subreaper()
    commands = [c.split("=", 1) for c in args.commands]
    for _ in range(args.warmup):
        for _, command in commands:
            run(command)
    walls = {name: [] for name, _ in commands}
    cpus = {name: [] for name, _ in commands}
    for round_ in range(args.runs):
        turn = round_ % len(commands)
        for name, command in commands[turn:] + commands[:turn]:
            wall, cpu = run(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
        print(f"round {round_ + 1}/{args.runs}: "
              + ", ".join(f"{n} {walls[n][-1]:.2f} s" for n, _ in commands),
              file=sys.stderr)
    first = commands[0][0]
    base_wall = statistics.median(walls[first])
    base_cpu = statistics.median(cpus[first])
    print(f"{args.runs} runs each, alternately; median (quartiles); ratio of medians to {first}")
    print(f"{'':<24} {'wall s':>22} {'ratio':>6} {'CPU s':>22} {'ratio':>6}")
    for name, _ in commands:
        wq = quartiles(walls[name])
        cq = quartiles(cpus[name])
        print(f"{name:<24} {wq[1]:6.3f} ({wq[0]:.3f}-{wq[2]:.3f}) {wq[1] / base_wall:6.2f} "
              f"{cq[1]:6.3f} ({cq[0]:.3f}-{cq[2]:.3f}) {cq[1] / base_cpu:6.2f}")
    # Paired: the ratio within each round, which cancels the load of the moment.
    for name, _ in commands[1:]:
        paired = [b / a for a, b in zip(walls[first], walls[name])]
        pq = quartiles(paired)
        print(f"{name} / {first}, paired by round: median {pq[1]:.2f} (quartiles {pq[0]:.2f}-{pq[2]:.2f})")


if __name__ == "__main__":
    main()
