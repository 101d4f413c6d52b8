# Ten minutes of steady use of each terminal demo in two tmux terminals (80x24) each:
# one change a second typed into terminal A, the time until terminal B's screen shows it (polled
# with `tmux capture-pane` every 5 ms, so a few ms of the figure are the polling), and the
# resident memory of both processes, reported for the first and last minute; then `q` in each
# terminal and the time until its process is gone. Needs tmux. From the repository root:
#
#   swift build && python3 Benchmarks/Scripts/demos-steady-run.py .build/debug 10
#   DEMOS=chat python3 Benchmarks/Scripts/demos-steady-run.py .build/release 3
import subprocess, time, sys, json, os, statistics, random
BIN = os.path.abspath(sys.argv[1])
MINUTES = float(sys.argv[2]) if len(sys.argv) > 2 else 10
def tmux(*a): return subprocess.run(["tmux", *a], capture_output=True, text=True).stdout
def pane(s): return tmux("capture-pane", "-p", "-t", s)
def pid(s): return int(tmux("display", "-p", "-t", s, "#{pane_pid}").strip())
def rss(p):
    try:
        return int(open(f"/proc/{p}/statm").read().split()[1]) * 4096 // (1 << 20)
    except Exception: return -1
demos = {
  "todos":   (lambda i: ("toggle 1", "Enter"), lambda i, s: ("1. [x]" if i % 2 == 1 else "1. [ ]") in s, [("add t", "Enter")]),
  "chat":    (lambda i: (f"m{i}", "Enter"), lambda i, s: f"ann: m{i}\n" in s + "\n", []),
  "cursors": (lambda i: ("l" if i % 2 == 1 else "h",), lambda i, s: f"A ann at {1 if i % 2 == 1 else 0},0" in s, []),
  "tiles":   (lambda i: ("Space",), lambda i, s: ("\n1 square painted" if i % 2 == 1 else "\n0 squares painted") in s, []),
}
only = os.environ.get("DEMOS")
if only: demos = {k: v for k, v in demos.items() if k in only.split(",")}
port0 = 21000 + random.randint(0, 9000)
data = f"/tmp/demos-steady-{port0}"
os.makedirs(data, exist_ok=True)
for n, name in enumerate(demos):
    for who in ("a", "b"):
        s = f"{name}-{who}"
        tmux("kill-session", "-t", s)
        args = f"{BIN}/{name} --port {port0 + n} --data {data}/{name}.sqlite --name {'ann' if who == 'a' else 'bob'} --room steady"
        if name == "todos": args = args.replace(" --room steady", "")
        tmux("new-session", "-d", "-s", s, "-x", "80", "-y", "24", args)
        time.sleep(1.5)
for name in demos:
    for who in ("a", "b"):
        t0 = time.time()
        while "authenticated" not in pane(f"{name}-{who}"):
            if time.time() - t0 > 60: sys.exit(f"{name}-{who} did not connect:\n{pane(name + '-' + who)}")
            time.sleep(0.2)
for name, (_, _, setup) in demos.items():
    for keys in setup: tmux("send-keys", "-t", f"{name}-a", *keys)
time.sleep(2)
start = time.time()
lags = {n: [] for n in demos}
memory = {n: [] for n in demos}
i = 0
while time.time() - start < MINUTES * 60:
    i += 1
    for name, (keys, seen, _) in demos.items():
        t = time.time()
        tmux("send-keys", "-t", f"{name}-a", *keys(i))
        while not seen(i, pane(f"{name}-b")):
            if time.time() - t > 30:
                sys.exit(f"{name}: change {i} not seen in 30 s:\n{pane(name + '-b')}")
            time.sleep(0.005)
        lags[name].append((time.time() - start, (time.time() - t) * 1000))
        memory[name].append((time.time() - start, rss(pid(f"{name}-a")), rss(pid(f"{name}-b"))))
    time.sleep(max(0, i - (time.time() - start)))  # one change a second per demo
report = {}
for name in demos:
    first = [l for t, l in lags[name] if t < 60]
    last = [l for t, l in lags[name] if t >= (MINUTES - 1) * 60]
    mf = [m for m in memory[name] if m[0] < 60]
    ml = [m for m in memory[name] if m[0] >= (MINUTES - 1) * 60]
    report[name] = dict(changes=len(lags[name]),
        first_minute_median_ms=round(statistics.median(first), 1), first_minute_max_ms=round(max(first), 1),
        last_minute_median_ms=round(statistics.median(last), 1), last_minute_max_ms=round(max(last), 1),
        rss_mb_first_minute=(mf[-1][1], mf[-1][2]), rss_mb_last_minute=(ml[-1][1], ml[-1][2]))
print(json.dumps(report, indent=1))
# Quit: q in both terminals; how long until each process is gone.
for name in demos:
    for who in ("b", "a"):
        p = pid(f"{name}-{who}")
        t = time.time()
        tmux("send-keys", "-t", f"{name}-{who}", "C-c")
        while os.path.exists(f"/proc/{p}") and open(f"/proc/{p}/stat").read().split()[2] != "Z" and time.time() - t < 10:
            time.sleep(0.005)
        print(f"{name}-{who}: quit in {round((time.time() - t) * 1000)} ms")
        tmux("kill-session", "-t", f"{name}-{who}")
