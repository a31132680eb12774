/** <module> What the provider offers, as one JSON object read by Node once at start: tool descriptors with
    inferred schemas, prompts, resources, templates, capabilities and cache policies.
*/
:- module(rondo_describe, [describe/1, tool_spec/3, arg_specs/2, auto_dispatched/1, scope_list/1]).

:- use_module(rondo_provider).
:- use_module(rondo_json, [curly_pairs/2]).
:- use_module(rondo_vocab, [text_of/2]).
:- use_module(rondo_types, [type_json/2]).
:- use_module(rondo_skills, [skills_json/1]).
:- use_module(rondo_events, [events_json/1]).
:- use_module(rondo_ui, [tool_ui_members/2, resource_ui_members/2]).
:- use_module(library(lists)).

obj(Pairs, Curly) :- curly_pairs(Curly, Pairs).

list_hook(Goal, List) :- ( hook(Goal) -> arg(1, Goal, List) ; List = [] ).

%!  describe(-Json) is det.
describe(J) :-
    provider(Flavour, Name),
    list_hook(capabilities(Caps), Caps),
    list_hook(tools(Tools), Tools),
    maplist(tool_json, Tools, TJ),
    list_hook(prompts(Prompts), Prompts), maplist(prompt_json, Prompts, PJ),
    list_hook(resources(Resources), Resources), maplist(resource_json, Resources, RJ),
    list_hook(resource_templates(Templates), Templates), maplist(template_json, Templates, MJ),
    cache_policies(Resources, CJ),
    ( hook_answers(completion(_, _, _, _)) -> Completion = @(true) ; Completion = @(false) ),
    skills_json(SJ),
    events_json(EJ),
    format(atom(NameText), '~w', [Name]),
    obj([name-NameText, flavour-Flavour, capabilities-Caps, tools-TJ, prompts-PJ,
         resources-RJ, templates-MJ, cache-CJ, completion-Completion, skills-SJ,
         events-EJ], J).

%!  tool_spec(+Name, -Functor, -Arity) is semidet.
tool_spec(Name, F, A) :-
    hook(tools(Tools)), memberchk(tool(Name, F, A), Tools).

tool_json(tool(Name, F, A), J) :- !,
    functor(Head, F, A),
    pred_info(Head, Info),
    ( memberchk(title(Title), Info) -> true ; Title = F ),
    ( memberchk(comment(C), Info) -> Extra0 = [description-C] ; Extra0 = [] ),
    ( hook(input_schema(Name, In)) -> true ; inferred_schema(Head, input, In) ),
    (   hook(output_schema(Name, Out)) -> Extra1 = [outputSchema-Out|Extra0]
    ;   auto_dispatched(Name) -> inferred_schema(Head, output, Out), Extra1 = [outputSchema-Out|Extra0]
    ;   Extra1 = Extra0
    ),
    task_members(Name, Tasks), scope_members(Name, Scopes), tool_ui_members(Name, UI),
    string_members(Name, Head, Strings),
    append([Tasks, Scopes, UI, Strings, Extra1], Extra),
    with_icons(tool_icons(Name), [name-Name, title-Title, inputSchema-In|Extra], Pairs),
    obj(Pairs, J).
tool_json(Other, _) :- throw(rondo_invalid_result(tool_descriptor, Other)).

%   task_support(Name, Support): whether the tool runs as a task for a client that can have one.
%   Support is forbidden (also when undeclared), optional or required; optional(after_input) and
%   required(after_input) run the first round in the request, so asking for input there is an
%   ordinary input_required answer, and start the task with the retry that brings the answers.
task_members(Name, Members) :-
    (   hook(task_support(Name, Support)) -> task_support_members(Support, Members)
    ;   Members = []
    ).

task_support_members(S, [taskSupport-S]) :- atom(S), memberchk(S, [forbidden, optional, required]), !.
task_support_members(S, [taskSupport-T, startsAfterInput-(@true)]) :-
    compound(S), S =.. [T, after_input], memberchk(T, [optional, required]), !.
task_support_members(S, _) :- throw(rondo_invalid_result(task_support, S)).

%   tool_scopes(Name, Scopes): the OAuth scopes (a list of atoms) a call of the tool needs. The
%   tool is listed to every caller; a call whose token lacks one is refused with 403
%   insufficient_scope naming them, so the client can ask for them (step-up).
scope_members(Name, Members) :-
    (   hook(tool_scopes(Name, Scopes))
    ->  (   scope_list(Scopes) -> Members = [requiredScopes-Scopes]
        ;   throw(rondo_invalid_result(tool_scopes, Scopes))
        )
    ;   Members = []
    ).

%   stringArguments: the input arguments an auto-dispatched tool declares `+string`, which Node
%   sends as SWI-Prolog strings: the predicate gets the string it asked for, and a client's text
%   never becomes an atom. Hooks get atoms, as Logtalk's vocabulary has them.
string_members(Name, Head, Members) :-
    (   auto_dispatched(Name)
    ->  arg_specs(Head, Specs),
        findall(Arg, member(spec(Arg, input, string, _), Specs), Names)
    ;   Names = []
    ),
    ( Names == [] -> Members = [] ; Members = [stringArguments-Names] ).

%!  scope_list(@Term) is semidet.
%   A list of scope tokens: atoms of the characters RFC 6749 allows (no space, quote or backslash).
scope_list(Scopes) :-
    is_list(Scopes),
    forall(member(S, Scopes),
           ( atom(S), S \== '', atom_codes(S, Cs),
             forall(member(C, Cs), ( C >= 0x21, C =< 0x7e, C =\= 0'", C =\= 0'\\ )) )).

%!  auto_dispatched(+Name) is semidet.
%   True when no handler can answer this tool, so its results are always the structured
%   output arguments: only then is an inferred outputSchema a promise the results keep.
auto_dispatched(Name) :-
    \+ hook_answers(tool_call(Name, _, _)),
    \+ hook_answers(tool_call(Name, _, _, _)),
    \+ hook_answers(tool_call_round(Name, _, _, _)).


%!  hook_answers(+Goal) is semidet.
%   True when the provider has clauses that may answer Goal (for an object: its own, see below).
hook_answers(Goal) :-
    hook_defined(Goal),
    provider(Flavour, Module),
    (   Flavour == logtalk -> object_may_answer(Module, Goal)
    ;   clause(Module:Goal, _) -> true
    ).

% The mcp_* protocols declare every hook, so an object "has" tool_call/3 whether or not it
% defines it: only its compiled clauses (found through its definition table) tell whether one
% may answer this tool. Inherited definitions, and runtimes whose tables do not look like this,
% count as answering, which only costs the inferred outputSchema.
object_may_answer(Object, Goal) :-
    (   object_definitions(Object, Def)
    ->  (   call(user:Def, Goal, _, Compiled)
        ->  catch(clause(user:Compiled, _), error(permission_error(_, _, _), _), true), !
        ;   provider_query(predicate_property(Goal, defined_in(_))), !
        )
    ;   true
    ).

object_definitions(Object, Def) :-
    current_predicate(user:'$lgt_current_object_'/Arity), Arity >= 4,
    functor(Entry, '$lgt_current_object_', Arity),
    arg(1, Entry, Object), arg(4, Entry, Def),
    user:Entry, !.

%!  arg_specs(+Head, -Specs) is det.
%   One spec(Name, Direction, Type, Description) per argument; Direction is input, output or
%   neither. Names come from info/2 `arguments` or `argnames`, else arg1, arg2, ...
arg_specs(Head, Specs) :-
    functor(Head, _, A),
    pred_modes(Head, Modes),
    pred_info(Head, Info),
    arg_names(Info, A, Names, Descriptions),
    maplist(arg_spec, Names, Modes, Descriptions, Specs).

arg_names(Info, _, Names, Descriptions) :-
    memberchk(arguments(Args), Info), !,
    maplist([N-D, N, D]>>true, Args, Names, Descriptions).
arg_names(Info, _, Names, Descriptions) :-
    memberchk(argnames(Names), Info), !,
    maplist([_, none]>>true, Names, Descriptions).
arg_names(_, A, Names, Descriptions) :-
    findall(Name, (between(1, A, N), atom_concat(arg, N, Name)), Names),
    maplist([_, none]>>true, Names, Descriptions).

arg_spec(Name, Mode, Description, spec(Name, Direction, Type, Description)) :-
    mode_parts(Mode, Direction, Type).

mode_parts(M, neither, term) :- var(M), !.
mode_parts(M, Dir, Type) :-
    (   M =.. [Op, Type0], direction(Op, Dir) -> Type = Type0
    ;   atom(M), direction(M, Dir) -> Type = untyped
    ;   Dir = neither, Type = term
    ).

direction(+, input).
direction(++, input).
direction(@, input).
direction(-, output).
direction(--, output).
direction(?, neither).

inferred_schema(Head, Direction, Schema) :-
    arg_specs(Head, Specs),
    include([spec(_, D, _, _)]>>(D == Direction), Specs, Selected),
    maplist(property_json, Selected, Properties),
    maplist([spec(N, _, _, _), N]>>true, Selected, Required),
    (   Properties == []
    ->  obj([type-object, properties-{}], Schema)
    ;   curly_pairs(PC, Properties),
        obj([type-object, properties-PC, required-Required], Schema)
    ).

property_json(spec(Name, _, Type, Description), Name-J) :-
    type_json(Type, JT),
    (   Description == none -> obj([type-JT], J)
    ;   text_of(Description, D), obj([type-JT, description-D], J)
    ).

prompt_json(prompt(N, D, Args), J) :- !, prompt_json(prompt(N, none, D, Args), J).
prompt_json(prompt(N, T, D, Args), J) :- !,
    maplist(argument_json, Args, AJ),
    optional_members([title-T, description-D], Extra),
    with_icons(prompt_icons(N), [name-N, arguments-AJ|Extra], Pairs),
    obj(Pairs, J).
prompt_json(Other, _) :- throw(rondo_invalid_result(prompt_descriptor, Other)).

argument_json(argument(N, D, R), J) :- !,
    ( R == true -> RJ = @(true) ; RJ = @(false) ),
    optional_members([description-D], Extra),
    obj([name-N, required-RJ|Extra], J).
argument_json(Other, _) :- throw(rondo_invalid_result(prompt_argument, Other)).

resource_json(resource(U, N, D, M), J) :- !, resource_json(resource(U, N, none, D, M), J).
resource_json(resource(U, N, T, D, M), J) :- !,
    optional_members([title-T, description-D, mimeType-M], Extra0),
    resource_ui_members(U, UI), append(Extra0, UI, Extra),
    with_icons(resource_icons(U), [uri-U, name-N|Extra], Pairs),
    obj(Pairs, J).
resource_json(Other, _) :- throw(rondo_invalid_result(resource_descriptor, Other)).

template_json(resource_template(U, N, D, M), J) :- !,
    template_json(resource_template(U, N, none, D, M), J).
template_json(resource_template(U, N, T, D, M), J) :- !,
    optional_members([title-T, description-D, mimeType-M], Extra),
    with_icons(resource_icons(U), [uriTemplate-U, name-N|Extra], Pairs),
    obj(Pairs, J).
template_json(Other, _) :- throw(rondo_invalid_result(resource_template_descriptor, Other)).

% Logtalk's 2025-11-25 icons: tool_icons/2 and prompt_icons/2 by name, resource_icons/2 by URI
% or URI template, each a non-empty list of icon objects ({src-S, mimeType-M, sizes-[...]}).
with_icons(Partial, Pairs, WithIcons) :-
    Partial =.. [Pred, Key],
    Goal =.. [Pred, Key, Icons],
    % Icons are decoration: a hook that raises leaves them out rather than the whole list.
    (   hook_defined(Goal), catch(hook(Goal), _, fail), Icons = [_|_]
    ->  append(Pairs, [icons-Icons], WithIcons)
    ;   WithIcons = Pairs
    ).

optional_members([], []).
optional_members([K-V|T], Out) :-
    (   ( var(V) ; V == none ; V == '' ) -> Out = Rest ; Out = [K-V|Rest] ),
    optional_members(T, Rest).

% cache_policy/4 is asked once here: Node's cache lookups must be synchronous. A rule that
% holds for any request is found by asking with a fresh variable that stays unbound.
cache_policies(Resources, Policies) :-
    Ops = [discover, tools_list, prompts_list, resources_list, resources_templates_list],
    findall(P, (member(Op, Ops), policy(Op, {}, P)), P1),
    findall(P, (member(R, Resources), arg(1, R, Uri), policy(resources_read, Uri, P)), P2),
    findall(P, (policy(resources_read, Any, P), var(Any)), P3),
    append([P1, P2, P3], Policies).

policy(Op, Request, J) :-
    copy_term(Request, Key),
    hook(cache_policy(Op, Request, Ttl, Scope)),
    integer(Ttl), Ttl >= 0, memberchk(Scope, [public, private]),
    (   var(Key) -> KeyMembers = [] ; Key == {} -> KeyMembers = [] ; KeyMembers = [key-Key] ),
    obj([operation-Op, ttlMs-Ttl, cacheScope-Scope|KeyMembers], J).
