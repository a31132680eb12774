% Declared by Rondo's bridge only when Logtalk's mcp_server library is not installed.
:- protocol(mcp_resource_protocol).

	:- info([comment is 'Objects providing MCP resources (declared by the Rondo bridge).']).

	:- public(resources/1).
	:- mode(resources(-list(compound)), one).
	:- info(resources/1, [comment is 'Resource descriptors resource(URI, Name, [Title,] Description, MimeType).', argnames is ['Resources']]).

	:- public(resource_templates/1).
	:- mode(resource_templates(-list(compound)), zero_or_one).
	:- info(resource_templates/1, [comment is 'Template descriptors resource_template(Template, Name, [Title,] Description, MimeType).', argnames is ['Templates']]).

	:- public(resource_read/3).
	:- mode(resource_read(+atom, +list(pair), --compound), one).
	:- info(resource_read/3, [comment is 'Handles a resource read: contents(Contents).', argnames is ['URI', 'Arguments', 'Result']]).

:- end_protocol.
