% Declared by Rondo's bridge only when Logtalk's mcp_server library is not installed, so that
% provider objects written for that library's MCP Apps hooks load unchanged. Same names, modes
% and meaning; `ui` in capabilities/1 announces the extension.
:- protocol(mcp_ui_protocol).

	:- info([comment is 'MCP Apps (io.modelcontextprotocol/ui) metadata of tools and resources (declared by the Rondo bridge).']).

	:- public(tool_ui/2).
	:- mode(tool_ui(?atom, -list), zero_or_more).
	:- info(tool_ui/2, [comment is 'The UI of a tool: resource_uri(URI) naming a ui:// resource, and/or visibility(List) of model and app.', argnames is ['Tool', 'Options']]).

	:- public(resource_ui_meta/2).
	:- mode(resource_ui_meta(?atom, -compound), zero_or_more).
	:- info(resource_ui_meta/2, [comment is 'The _meta.ui of a ui:// resource, as a curly term (csp, permissions, domain, prefersBorder).', argnames is ['URI', 'Meta']]).

:- end_protocol.
