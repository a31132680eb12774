// An upstream that exits at start, saying why (with the time, so a test can tell how fast the
// gateway reported it).
process.stderr.write('loading settings\n');
process.stderr.write(`FATAL at ${Date.now()}: cannot open database /var/db/notes.sqlite\n`);
process.exit(3);
