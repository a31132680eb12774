% Declared by Rondo's bridge only when Logtalk's mcp_server library is not installed.
:- protocol(mcp_prompt_protocol).

	:- info([comment is 'Objects providing MCP prompts (declared by the Rondo bridge).']).

	:- public(prompts/1).
	:- mode(prompts(-list(compound)), one).
	:- info(prompts/1, [comment is 'Prompt descriptors prompt(Name, [Title,] Description, Arguments).', argnames is ['Prompts']]).

	:- public(prompt_get/3).
	:- mode(prompt_get(+atom, +list(pair), --compound), one).
	:- info(prompt_get/3, [comment is 'Handles a prompt get: messages(Ms) or messages(Description, Ms).', argnames is ['Name', 'Arguments', 'Result']]).

:- end_protocol.
