/** <module> What is wrong with a loaded provider, found before it is served (and by `rondo-logtalk
    check`): list hooks that are not lists, descriptors of the wrong shape, tools naming
    predicates that are not there, modes that do not parse or name an unknown type, bad
    task_support/2 and tool_scopes/2 values, bad tool_ui/2 and resource_ui_meta/2 answers. Each problem is one message, "what was found; expected <shape>", with
    the file and line of the clause it comes from. Node adds what it checks itself (schemas,
    templates) at the locations given here.
*/
:- module(rondo_check, [check/1]).

:- use_module(rondo_provider).
:- use_module(rondo_describe, [auto_dispatched/1, scope_list/1]).
:- use_module(rondo_directives, [mode_location/4]).
:- use_module(rondo_json, [curly_pairs/2]).
:- use_module(rondo_types, [known_type/1, known_types_text/1]).
:- use_module(rondo_skills, [skill_problem/3, skills_file/1]).
:- use_module(rondo_events, [event_problem/2]).
:- use_module(rondo_ui, [tool_ui_problem/3, resource_ui_problem/3]).
:- use_module(library(lists)).

%!  check(-Json) is det.
%   {problems: [{file, line, message}], locations: {tools, ..., inputSchema, outputSchema}}.
check(J) :-
    findall(P, problem(P), Ps0), list_to_set(Ps0, Ps),
    maplist(problem_json, Ps, PJ),
    findall(Key-L,
            ( member(Key-Head, [tools-tools(_), prompts-prompts(_), resources-resources(_),
                                templates-resource_templates(_), events-events(_),
                                inputSchema-input_schema(_, _), outputSchema-output_schema(_, _)]),
              hook_defined(Head), location(Head, F, Ln), location_json(F, Ln, L) ),
            Locations),
    curly_pairs(LJ, Locations),
    curly_pairs(J, [problems-PJ, locations-LJ]).

list_hook(tools(_)).
list_hook(prompts(_)).
list_hook(resources(_)).
list_hook(resource_templates(_)).
list_hook(skills(_)).
list_hook(events(_)).

problem(problem(F, L, M)) :-
    list_hook(Head), functor(Head, Name, 1),
    catch(( hook(Head), arg(1, Head, V), \+ is_list(V),
            format(string(M), '~w/1 gives ~q, which is not a list; expected ~w([...])', [Name, V, Name]) ),
          E,
          format(string(M), '~w/1 raised ~q; expected it to give a list', [Name, E])),
    location(Head, F, L).
problem(problem(F, L, M)) :-
    listed(Head, Items), member(Item, Items),
    descriptor_problem(Head, Item, M),
    location(Head, F, L).
problem(problem(F, L, M)) :-
    listed(skills(_), Items), skills_file(File), member(Item, Items),
    skill_problem(Item, File, M),
    location(skills(_), F, L).
problem(problem(F, L, M)) :-
    listed(events(_), Items), member(Item, Items),
    event_problem(Item, M),
    location(events(_), F, L).
problem(problem(F, L, M)) :-
    listed(tools(_), Tools), member(tool(_, Functor, Arity), Tools),
    atom(Functor), integer(Arity), Arity >= 0,
    functor(Head, Functor, Arity),
    mode_template(Head, Template, F, L),
    Template =.. [_|Args], nth1(N, Args, Arg),
    mode_problem(Arg, What),
    format(string(M), 'mode of ~w/~w: argument ~w ~w', [Functor, Arity, N, What]).
problem(problem(F, L, M)) :-
    hook_defined(task_support(_, _)),
    catch(findall(N-S, provider_call(task_support(N, S)), Pairs), _, Pairs = []),
    member(N-S, Pairs), \+ task_support_value(S),
    format(string(M), 'task_support(~q, ~q) gives an unknown task support; expected forbidden, optional, required, optional(after_input) or required(after_input)', [N, S]),
    location(task_support(_, _), F, L).
problem(problem(F, L, M)) :-
    hook_defined(tool_scopes(_, _)),
    catch(findall(N-S, provider_call(tool_scopes(N, S)), Pairs), _, Pairs = []),
    member(N-S, Pairs),
    (   \+ scope_list(S)
    ->  format(string(M), 'tool_scopes(~q, ~q) gives scopes that are not a list of scope atoms; expected a list of atoms without spaces, quotes or backslashes, as in [deploy, \'repo:write\']', [N, S])
    ;   \+ ( listed(tools(_), Tools), memberchk(tool(N, _, _), Tools) )
    ->  format(string(M), 'tool_scopes(~q, ~q) names a tool that tools/1 does not list; expected the name of a listed tool', [N, S])
    ),
    location(tool_scopes(_, _), F, L).
problem(problem(F, L, M)) :-
    member(Hook-Check, [tool_ui(K, V)-tool_ui_problem(K, V, M),
                        resource_ui_meta(K, V)-resource_ui_problem(K, V, M)]),
    hook_defined(Hook),
    catch(findall(Hook, provider_call(Hook), Answers), _, Answers = []),
    member(Hook, Answers), call(Check),
    clause_location(Hook, F, L).

problem(problem(F, L, M)) :-
    provider(plain, Module),
    listed(tools(_), Tools), member(tool(Name, Functor, Arity), Tools),
    atom(Functor), integer(Arity), Arity >= 0,
    functor(Head, Functor, Arity),
    predicate_property(Module:Head, number_of_clauses(_)),
    \+ predicate_property(Module:Head, imported_from(_)),
    clause(Module:Head, Body, Ref),
    body_goal(Module, Body, Goal),
    \+ predicate_property(Module:Goal, visible),
    functor(Goal, GF, GA),
    clause_property(Ref, file(F)),
    ( clause_property(Ref, line_count(L)) -> true ; L = @(null) ),
    format(string(M), 'tool ~w: ~w/~w calls ~w/~w, which is not defined; expected a predicate of the provider or of a library it loads', [Name, Functor, Arity, GF, GA]).

listed(Head, Items) :-
    % A list hook that raises has no items to check: problem/1 reports what it raised.
    list_hook(Head), catch(hook(Head), _, fail), arg(1, Head, Items), is_list(Items).

descriptor_problem(tools(_), Item, M) :- tool_problem(Item, M).
descriptor_problem(prompts(_), Item, M) :- prompt_problem(Item, M).
descriptor_problem(resources(_), Item, M) :- resource_problem(resource, Item, M).
descriptor_problem(resource_templates(_), Item, M) :- resource_problem(resource_template, Item, M).

tool_problem(tool(Name, F, A), M) :- !,
    (   \+ atom(Name)
    ->  format(string(M), 'tool name ~q is not an atom; expected tool(Name, Predicate, Arity) with an atom Name', [Name])
    ;   \+ ( atom(F), integer(A), A >= 0 )
    ->  format(string(M), 'tool ~w names ~q/~q, which is not a predicate indicator; expected tool(~w, Predicate, Arity) with an atom Predicate and an integer Arity', [Name, F, A, Name])
    ;   \+ defined(F/A), auto_dispatched(Name)
    ->  missing_predicate(Name, F, A, M)
    ).
tool_problem(Other, M) :-
    format(string(M), 'tools/1 lists ~q, which is not a tool descriptor; expected tool(Name, Predicate, Arity)', [Other]).

missing_predicate(Name, F, A, M) :-
    (   defined(F/Other), Other \== A
    ->  format(string(M), 'tool ~w names ~w/~w, which is not defined (~w/~w is); expected tool(~w, ~w, ~w)', [Name, F, A, F, Other, Name, F, Other])
    ;   format(string(M), 'tool ~w names ~w/~w, which is not defined; expected tool(~w, Predicate, Arity) naming a predicate of the provider, or a tool_call/3 clause for ~w', [Name, F, A, Name, Name])
    ).

prompt_problem(prompt(N, _, Args), M) :- !, prompt_parts_problem(N, Args, M).
prompt_problem(prompt(N, _, _, Args), M) :- !, prompt_parts_problem(N, Args, M).
prompt_problem(Other, M) :-
    format(string(M), 'prompts/1 lists ~q, which is not a prompt descriptor; expected prompt(Name, Description, Arguments) or prompt(Name, Title, Description, Arguments)', [Other]).

prompt_parts_problem(N, _, M) :- \+ atom(N), !,
    format(string(M), 'prompt name ~q is not an atom; expected prompt(Name, Description, Arguments) with an atom Name', [N]).
prompt_parts_problem(N, Args, M) :- \+ is_list(Args), !,
    format(string(M), 'prompt ~w has the arguments ~q, which is not a list; expected a list of argument(Name, Description, Required)', [N, Args]).
prompt_parts_problem(N, Args, M) :-
    member(A, Args), \+ ( A = argument(AN, _, R), atom(AN), memberchk(R, [true, false]) ), !,
    format(string(M), 'prompt ~w lists the argument ~q; expected argument(Name, Description, Required) with an atom Name and Required true or false', [N, A]).

resource_problem(Kind, Item, M) :-
    compound(Item), compound_name_arity(Item, Kind, Arity), memberchk(Arity, [4, 5]), !,
    arg(1, Item, U), arg(2, Item, N),
    \+ ( atom(U), atom(N) ),
    format(string(M), '~w ~q has the URI ~q and the name ~q; expected atoms for both', [Kind, Item, U, N]).
resource_problem(Kind, Item, M) :-
    (   Kind == resource
    ->  Shape = 'resource(Uri, Name, Description, MimeType) or resource(Uri, Name, Title, Description, MimeType)',
        List = resources
    ;   Shape = 'resource_template(UriTemplate, Name, Description, MimeType) or resource_template(UriTemplate, Name, Title, Description, MimeType)',
        List = resource_templates
    ),
    format(string(M), '~w/1 lists ~q, which is not a ~w descriptor; expected ~w', [List, Item, Kind, Shape]).

mode_problem(Arg, M) :- \+ mode_argument(Arg), !,
    format(string(M), 'is ~q, which is not a mode; expected +, -, ?, @, ++ or --, with an optional type (as in +integer)', [Arg]).
mode_problem(Arg, M) :-
    compound(Arg), Arg =.. [_, Type], \+ known_type(Type),
    known_types_text(Known),
    format(string(M), 'has the unknown type ~q; expected one of ~w', [Type, Known]).

mode_argument(A) :- atom(A), !, memberchk(A, [+, -, ?, @, ++, --]).
mode_argument(A) :- compound(A), A =.. [Op, _], memberchk(Op, [+, -, ?, @, ++, --]).

task_support_value(S) :- atom(S), memberchk(S, [forbidden, optional, required]), !.
task_support_value(S) :- compound(S), S =.. [T, after_input], memberchk(T, [optional, required]).

% defined(?F/?A): enumerates the arities of F when A is unbound.
defined(F/A) :-
    provider_query(current_predicate(F/A)).

% Where a hook's clauses (or a mode directive) are, as file and line; @null when unknown.
location(Head, File, Line) :-
    provider(Flavour, Name),
    (   Flavour == logtalk -> object_location(Name, Head, File, Line)
    ;   predicate_property(Name:Head, file(File)),
        ( predicate_property(Name:Head, line_count(Line)) -> true ; Line = @(null) )
    ), !.
location(_, @(null), @(null)).

% The first clause whose head matches an answer (one tool_ui/2 fact of many) in a module, else
% where location/3 has the predicate. clause/3 refuses protected (system) predicates: those have
% no provider clause to point at.
clause_location(Head, File, Line) :-
    provider(plain, Module),
    catch(clause(Module:Head, _, Ref), error(permission_error(_, _, _), _), fail),
    clause_property(Ref, file(File)), clause_property(Ref, line_count(Line)), !.
clause_location(Head, File, Line) :- location(Head, File, Line).

object_location(_, Head, File, Line) :-
    provider_file(File),
    (   provider_query(predicate_property(Head, defined_in(_, Line))), integer(Line) -> true
    ;   Line = @(null)
    ).

mode_template(Head, Template, File, Line) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  provider_query(predicate_property(Head, mode(Template, _))),
        provider_file(File),
        (   provider_query(predicate_property(Head, declared_in(_, Line))) -> true
        ;   Line = @(null)
        )
    ;   copy_term(Head, Template), mode_location(Name, Template, File, Line)
    ).

problem_json(problem(F, L, M), J) :- curly_pairs(J, [file-F, line-L, message-M]).

location_json(F, L, J) :- curly_pairs(J, [file-F, line-L]).

% body_goal(+Module, +Body, -Goal): each goal a clause body calls, through the control constructs
% and the goal arguments of meta-predicates (findall/3, forall/2, catch/3 ...). A variable goal is
% left alone: what it calls is known only when it runs.
body_goal(_, Body, _) :- var(Body), !, fail.
body_goal(M, _:Body, Goal) :- !, body_goal(M, Body, Goal).
body_goal(M, Body, Goal) :-
    control(Body, Parts), !,
    member(Part, Parts), body_goal(M, Part, Goal).
body_goal(M, Body, Goal) :-
    callable(Body),
    predicate_property(M:Body, meta_predicate(Spec)), !,
    (   Goal = Body
    ;   arg(N, Spec, 0), arg(N, Body, Arg), body_goal(M, Arg, Goal)
    ).
body_goal(_, Body, Body) :- callable(Body).

control((A, B), [A, B]).
control((A ; B), [A, B]).
control((A -> B), [A, B]).
control((A *-> B), [A, B]).
control(\+ A, [A]).
