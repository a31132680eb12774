// An upstream that never answers: it reads stdin and says nothing (a server stuck at start).
process.stdin.resume();
setInterval(() => undefined, 60_000);
