# A joiner left alone while the host is down: its resident memory and status line every 10 s for
# 80 s, then how long `q` takes. Needs tmux. From the repository root:
#
#   swift build && python3 Benchmarks/Scripts/demo-joiner-alone.py .build/debug 80
import subprocess, time, sys, os, random
BIN = os.path.abspath(sys.argv[1])
def tmux(*a): return subprocess.run(["tmux", *a], capture_output=True, text=True).stdout
def pane(s): return tmux("capture-pane", "-p", "-t", s)
def pid(s): return int(tmux("display", "-p", "-t", s, "#{pane_pid}").strip())
def rss(p): return int(open(f"/proc/{p}/statm").read().split()[1]) * 4096 // (1 << 20)
port = 31000 + random.randint(0, 9000)
for s, name in (("alone-host", "ann"), ("alone-joiner", "bob")):
    tmux("kill-session", "-t", s)
    tmux("new-session", "-d", "-s", s, "-x", "80", "-y", "24", f"{BIN}/todos --port {port} --data /tmp/demos-alone-{port}.sqlite --name {name}")
    time.sleep(2)
while "authenticated" not in pane("alone-joiner"): time.sleep(0.2)
tmux("send-keys", "-t", "alone-host", "C-c")
time.sleep(1)
p = pid("alone-joiner")
for t in range(0, int(sys.argv[2]) + 1 if len(sys.argv) > 2 else 81, 10):
    status = [l for l in pane("alone-joiner").splitlines() if l.startswith("●")]
    print(f"t={t:2d}s rss={rss(p)} MB status={status}")
    time.sleep(10)
t = time.time(); tmux("send-keys", "-t", "alone-joiner", "C-c")
while os.path.exists(f"/proc/{p}") and open(f"/proc/{p}/stat").read().split()[2] != "Z" and time.time() - t < 10: time.sleep(0.005)
print(f"quit in {round((time.time() - t) * 1000)} ms")
tmux("kill-session", "-t", "alone-joiner"); tmux("kill-session", "-t", "alone-host")
