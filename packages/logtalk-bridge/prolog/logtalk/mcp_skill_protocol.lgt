% Declared by Rondo's bridge: skills (the io.modelcontextprotocol/skills extension) have no
% protocol in Logtalk's mcp_server library.
:- protocol(mcp_skill_protocol).

	:- info([comment is 'Skills the server serves (SEP-2640), declared by the Rondo bridge.']).

	:- public(skills/1).
	:- mode(skills(-list), zero_or_one).
	:- info(skills/1, [comment is 'The skills: skill(Name, Properties) with description/1, instructions/1, file/2 and frontmatter/1 properties, or skill_directory(Directory).', argnames is ['Skills']]).

:- end_protocol.
