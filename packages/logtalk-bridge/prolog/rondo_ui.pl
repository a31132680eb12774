/*  MCP Apps (the io.modelcontextprotocol/ui extension): the optional hooks of Logtalk's
    mcp_ui_protocol, read from Logtalk objects and SWI modules alike.

        tool_ui(Tool, Options)       Options: resource_uri(URI), a ui:// resource resources/1
                                     lists, and/or visibility(List) of model and app; the tool's
                                     descriptor gets _meta.ui {resourceUri, visibility}
        resource_ui_meta(URI, Meta)  Meta: a curly term, the resource's _meta.ui (csp,
                                     permissions, domain, prefersBorder); on its resources/list
                                     entry, and Node adds it to the resource's contents

    `ui` in capabilities/1 announces the extension; Node does that from the capabilities list.
    tool_ui_problem/3 and resource_ui_problem/3 say what is wrong with one answer, for the checks
    run at load; the descriptions carry only answers without problems.
*/
:- module(rondo_ui, [tool_ui_members/2, resource_ui_members/2,
                     tool_ui_problem/3, resource_ui_problem/3]).

:- use_module(rondo_provider).
:- use_module(rondo_json, [curly_pairs/2]).
:- use_module(library(lists)).

%!  tool_ui_members(+Name, -Members) is det.
%   ['_meta'-{ui-UI}] for a tool with a well-formed tool_ui/2 answer, else [].
tool_ui_members(Name, ['_meta'-{ui-UI}]) :-
    first_answer(tool_ui(Name, Options)),
    \+ tool_ui_problem(Name, Options, _), !,
    findall(Key-Value,
            ( member(Option-Key, [resource_uri(Value)-resourceUri, visibility(Value)-visibility]),
              memberchk(Option, Options) ),
            Pairs),
    curly_pairs(UI, Pairs).
tool_ui_members(_, []).

%!  resource_ui_members(+Uri, -Members) is det.
%   ['_meta'-{ui-Meta}] for a resource with a well-formed resource_ui_meta/2 answer, else [].
resource_ui_members(Uri, ['_meta'-{ui-Meta}]) :-
    first_answer(resource_ui_meta(Uri, Meta)),
    \+ resource_ui_problem(Uri, Meta, _), !.
resource_ui_members(_, []).

first_answer(Goal) :-
    hook_defined(Goal),
    % UI metadata is decoration: a tool_ui/2 or resource_ui_meta/2 that raises leaves it out of
    % the descriptor rather than the whole list; the start-up check reports what it raised.
    catch(provider_call(Goal), _, fail), !.

%!  tool_ui_problem(+Name, +Options, -Message) is semidet.
tool_ui_problem(Name, Options, M) :-
    (   \+ ( atom(Name), listed_name(tools, Name) )
    ->  format(string(M), 'tool_ui(~q, _) names a tool that tools/1 does not list; expected the name of a listed tool', [Name])
    ;   \+ ( is_list(Options), Options = [_|_] )
    ->  format(string(M), 'tool_ui(~q, ~q): the options are not a non-empty list; expected [resource_uri(URI), visibility(List)] or either one', [Name, Options])
    ;   member(Option, Options), option_problem(Option, Why)
    ->  format(string(M), 'tool_ui(~q, _): ~w', [Name, Why])
    ;   member(Key, [resource_uri, visibility]), Probe =.. [Key, _],
        include(subsumes_term(Probe), Options, [_, _|_])
    ->  format(string(M), 'tool_ui(~q, _) gives ~w/1 more than once; expected it at most once', [Name, Key])
    ).

option_problem(Option, Why) :- var(Option), !,
    Why = 'an option is a variable; expected resource_uri(URI) or visibility(List)'.
option_problem(resource_uri(U), Why) :- !,
    (   \+ ( atom(U), sub_atom(U, 0, _, _, 'ui://') )
    ->  format(string(Why), 'resource_uri(~q) is not a ui:// URI; expected resource_uri(\'ui://...\')', [U])
    ;   \+ listed_name(resources, U)
    ->  format(string(Why), 'resource_uri(~q) names a resource that resources/1 does not list; expected the URI of a listed ui:// resource', [U])
    ).
option_problem(visibility(V), Why) :- !,
    \+ ( is_list(V), V = [_|_], forall(member(X, V), ( atom(X), memberchk(X, [model, app]) )),
         sort(V, S), length(S, N), length(V, N) ),
    format(string(Why), 'visibility(~q) is not a list of model and app; expected visibility([model]), visibility([app]) or visibility([model, app])', [V]).
option_problem(Option, Why) :-
    format(string(Why), 'unknown option ~q; expected resource_uri(URI) or visibility(List)', [Option]).

%!  resource_ui_problem(+Uri, +Meta, -Message) is semidet.
resource_ui_problem(Uri, Meta, M) :-
    (   \+ ( atom(Uri), listed_name(resources, Uri) )
    ->  format(string(M), 'resource_ui_meta(~q, _) names a resource that resources/1 does not list; expected the URI of a listed resource', [Uri])
    ;   meta_problem(Meta, Why)
    ->  format(string(M), 'resource_ui_meta(~q, _): ~w', [Uri, Why])
    ).

meta_problem(Meta, Why) :- \+ object_pairs(Meta, _), !,
    format(string(Why), 'the metadata ~q is not a curly term; expected {csp-{...}, permissions-{...}, domain-Domain, prefersBorder- @true} or some of them', [Meta]).
meta_problem(Meta, Why) :-
    object_pairs(Meta, Pairs), member(Key-Value, Pairs),
    member_problem(Key, Value, Why), !.

member_problem(csp, C, Why) :- !,
    nested_problem(csp, C, [connectDomains, resourceDomains, frameDomains, baseUriDomains],
                   text_list, 'a list of origins', Why).
member_problem(permissions, P, Why) :- !,
    nested_problem(permissions, P, [camera, microphone, geolocation, clipboardWrite],
                   ==({}), '{}', Why).
member_problem(domain, D, Why) :- !, \+ text(D),
    format(string(Why), 'domain-~q is not a text; expected an atom naming the origin', [D]).
member_problem(prefersBorder, B, Why) :- !, \+ memberchk(B, [@(true), @(false)]),
    format(string(Why), 'prefersBorder-~q is not a JSON boolean; expected prefersBorder- @true or prefersBorder- @false', [B]).
member_problem(Key, _, Why) :-
    format(string(Why), 'the unknown member ~q; expected csp, permissions, domain or prefersBorder', [Key]).

nested_problem(Name, Value, _, _, _, Why) :- \+ object_pairs(Value, _), !,
    format(string(Why), '~w-~q is not a curly term; expected ~w-{Key-Value, ...}', [Name, Value, Name]).
nested_problem(Name, Value, Known, Check, Shape, Why) :-
    object_pairs(Value, Pairs),
    (   member(Key-_, Pairs), \+ memberchk(Key, Known)
    ->  atomic_list_concat(Known, ', ', KnownText),
        format(string(Why), '~w has the unknown member ~q; expected one of ~w', [Name, Key, KnownText])
    ;   member(Key-V, Pairs), \+ call(Check, V)
    ->  format(string(Why), '~w: ~w-~q; expected ~w', [Name, Key, V, Shape])
    ).

% A curly object's pairs, each Key-Value with an atom Key.
object_pairs(Term, Pairs) :-
    nonvar(Term), ( Term == {} ; Term = {_} ),
    curly_pairs(Term, Pairs),
    forall(member(P, Pairs), ( nonvar(P), P = K-_, atom(K) )).

text(T) :- atom(T), ! ; string(T).
text_list(L) :- is_list(L), forall(member(X, L), text(X)).

% A list hook that raises lists nothing here; problem/1 of the start-up check reports what it raised.
listed_name(tools, Name) :-
    catch(hook(tools(Tools)), _, fail), is_list(Tools),
    memberchk(tool(Name, _, _), Tools).
listed_name(resources, Uri) :-
    catch(hook(resources(Resources)), _, fail), is_list(Resources),
    member(R, Resources), compound(R), arg(1, R, U), U == Uri, !.
