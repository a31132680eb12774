/*  What `rondo-logtalk check` reports that only the loaded provider can tell: tool descriptors
    naming predicates that are not there, and mode directives that do not parse, each with the
    file and line it comes from. Node adds what it checks itself (schemas, templates) at the
    locations given here.
*/
:- module(rondo_check, [check/1]).

:- use_module(rondo_provider).
:- use_module(rondo_describe, [auto_dispatched/1]).
:- use_module(rondo_directives, [mode_location/4]).
:- use_module(rondo_json, [curly_pairs/2]).
:- use_module(library(lists)).

%!  check(-Json) is det.
%   {problems: [{file, line, message}], locations: {tools, ..., inputSchema, outputSchema}}.
check(J) :-
    findall(P, problem(P), Ps),
    maplist(problem_json, Ps, PJ),
    findall(Key-L,
            ( member(Key-Head, [tools-tools(_), prompts-prompts(_), resources-resources(_),
                                templates-resource_templates(_),
                                inputSchema-input_schema(_, _), outputSchema-output_schema(_, _)]),
              location(Head, F, Ln), location_json(F, Ln, L) ),
            Locations),
    curly_pairs(LJ, Locations),
    curly_pairs(J, [problems-PJ, locations-LJ]).

problem(problem(F, L, Message)) :-
    hook(tools(Tools)), member(Descriptor, Tools),
    descriptor_problem(Descriptor, Message),
    location(tools(_), F, L).
problem(problem(F, L, Message)) :-
    hook(tools(Tools)), member(tool(_, Functor, Arity), Tools),
    atom(Functor), integer(Arity),
    functor(Head, Functor, Arity),
    mode_template(Head, Template, F, L),
    Template =.. [_|Args], nth1(N, Args, Arg), \+ mode_argument(Arg),
    format(string(Message), 'mode of ~w/~w: argument ~w (~q) is not a mode (+, -, ?, @, ++ or --, with an optional type)', [Functor, Arity, N, Arg]).

descriptor_problem(tool(Name, F, A), Message) :- !,
    (   \+ atom(Name) -> format(string(Message), 'tool name ~q is not an atom', [Name])
    ;   \+ ( atom(F), integer(A), A >= 0 )
    ->  format(string(Message), 'tool ~w: ~q/~q is not a predicate indicator', [Name, F, A])
    ;   \+ defined(F/A), auto_dispatched(Name)
    ->  format(string(Message), 'tool ~w names ~w/~w, which is not defined (and no tool_call hook answers ~w)', [Name, F, A, Name])
    ).
descriptor_problem(Other, Message) :-
    format(string(Message), '~q is not a tool(Name, Functor, Arity) descriptor', [Other]).

mode_argument(A) :- atom(A), !, memberchk(A, [+, -, ?, @, ++, --]).
mode_argument(A) :- compound(A), A =.. [Op, _], memberchk(Op, [+, -, ?, @, ++, --]).

defined(F/A) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  Query =.. ['::', Name, current_predicate(F/A)], catch(user:Query, _, fail)
    ;   current_predicate(Name:F/A)
    ).

% Where a hook's clauses (or a mode directive) are, as file and line; @null when unknown.
location(Head, File, Line) :-
    provider(Flavour, Name),
    (   Flavour == logtalk -> object_location(Name, Head, File, Line)
    ;   predicate_property(Name:Head, file(File)),
        ( predicate_property(Name:Head, line_count(Line)) -> true ; Line = @(null) )
    ), !.

object_location(Object, Head, File, Line) :-
    object_file(Object, File),
    (   Query =.. ['::', Object, predicate_property(Head, defined_in(_, Line))],
        catch(user:Query, _, fail), integer(Line) -> true
    ;   Line = @(null)
    ).

object_file(Object, File) :-
    (   catch(user:object_property(Object, file(File)), _, fail) -> true
    ;   catch(user:object_property(Object, file(Base, Dir)), _, fail), atom_concat(Dir, Base, File)
    ).

mode_template(Head, Template, File, Line) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  Query =.. ['::', Name, predicate_property(Head, mode(Template, _))],
        catch(user:Query, _, fail),
        object_file(Name, File),
        (   Q2 =.. ['::', Name, predicate_property(Head, declared_in(_, Line))],
            catch(user:Q2, _, fail) -> true
        ;   Line = @(null)
        )
    ;   copy_term(Head, Template), mode_location(Name, Template, File, Line)
    ).

problem_json(problem(F, L, M), J) :- curly_pairs(J, [file-F, line-L, message-M]).

location_json(F, L, J) :- curly_pairs(J, [file-F, line-L]).
