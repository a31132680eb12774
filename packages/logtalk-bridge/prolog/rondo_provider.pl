/** <module> The provider seen the same way in both flavours: a plain module (goals called module-
    qualified) or a Logtalk object (goals sent with ::). Also reflection on mode/2 and info/2.
*/
:- module(rondo_provider, [
    set_provider/2, provider/2, hook/1, hook_defined/1, provider_call/1, provider_query/1,
    provider_file/1, pred_modes/2, pred_info/2, detect_provider/2
]).

:- use_module(rondo_directives, [module_mode/3, module_info/3]).
:- use_module(library(lists)).

:- dynamic current_provider/2.

%!  set_provider(+Flavour, +Name) is det.
set_provider(Flavour, Name) :-
    retractall(current_provider(_, _)),
    assertz(current_provider(Flavour, Name)).

%!  provider(-Flavour, -Name) is det.
provider(Flavour, Name) :- current_provider(Flavour, Name), !.

%!  provider_call(+Goal) is nondet.
%   Calls Goal in the provider (a message to the object, or a module-qualified call).
provider_call(Goal) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  Send =.. ['::', Name, Goal], call(user:Send)
    ;   call(Name:Goal)
    ).

%!  provider_query(+Query) is nondet.
%   Reflection on the provider, the one place that tells an object from a module. Query is
%   asked in Logtalk's words, and answered for a module the same way:
%
%       current_predicate(F/A)                 the provider may answer F/A
%       predicate_property(Head, mode(T, N))   the first mode/2 directive of Head
%       predicate_property(Head, info(Pairs))  the info/2 list of Head
%       predicate_property(Head, Property)     any other property (objects; modules: SWI's)
%
%   An object that is not loaded fails like a missing module predicate: the existence error
%   Logtalk raises for it is the only one caught.
provider_query(Query) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  Send =.. ['::', Name, Query],
        catch(user:Send, error(existence_error(_, _), _), fail)
    ;   module_query(Query, Name)
    ).

module_query(current_predicate(F/A), M) :- !, current_predicate(M:F/A).
module_query(predicate_property(Head, mode(T, _)), M) :- !, module_mode(M, Head, T).
module_query(predicate_property(Head, info(Pairs)), M) :- !, module_info(M, Head, Pairs).
module_query(predicate_property(Head, Property), M) :- predicate_property(M:Head, Property).

%!  provider_file(-File) is semidet.
%   The file of the provider: the object's source file, or the file of the module.
provider_file(File) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  (   object_property(Name, file(File)) -> true
        ;   object_property(Name, file(Base, Dir)), atom_concat(Dir, Base, File)
        )
    ;   module_property(Name, file(File))
    ), !.

object_property(Object, Property) :-
    catch(user:object_property(Object, Property), error(existence_error(_, _), _), fail).

%!  hook(+Goal) is semidet.
%   Calls an optional hook: fails when the provider does not define (or declare) it, or when it
%   fails; exceptions raised by the hook itself propagate.
hook(Goal) :-
    hook_defined(Goal),
    functor(Goal, F, A),
    catch(provider_call(Goal), error(existence_error(Kind, F/A), _), undeclared(Kind)),
    !.

undeclared(predicate_declaration) :- !, fail.
undeclared(procedure) :- !, fail.
undeclared(Kind) :- throw(error(existence_error(Kind, hook), _)).

%!  hook_defined(+Goal) is semidet.
%   True when the provider may answer Goal. For objects, a declared but undefined predicate
%   simply fails when called, so this only rules out what is certainly absent.
hook_defined(Goal) :-
    functor(Goal, F, A),
    provider_query(current_predicate(F/A)), !.

%!  pred_modes(+Head, -Modes) is det.
%   The argument modes of the first mode/2 directive, or all `+` (untyped) when there is none.
pred_modes(Head, Modes) :-
    (   provider_query(predicate_property(Head, mode(Template, _))) -> Template =.. [_|Modes]
    ;   functor(Head, _, A), length(Modes, A), maplist(=(+), Modes)
    ).

%!  pred_info(+Head, -Pairs) is det.
%   The info/2 list as Key(Value) terms ([] when there is none).
pred_info(Head, Pairs) :-
    (   provider_query(predicate_property(Head, info(Pairs0))) -> Pairs = Pairs0 ; Pairs = [] ).

%!  detect_provider(+Flavour, -Name) is semidet.
%   The provider among what was loaded: for Logtalk, the last object conforming to one of the
%   mcp_*_protocol protocols; for modules, the first loaded module defining a list hook.
detect_provider(logtalk, Name) :-
    findall(O, (user:current_object(O), mcp_object(O)), Os),
    last(Os, Name).
detect_provider(plain, Name) :-
    rondo_loaded_module(Name),
    member(PI, [tools/1, prompts/1, resources/1, resource_templates/1, skills/1, events/1]),
    current_predicate(Name:PI), !.

mcp_object(O) :-
    member(P, [mcp_tool_protocol, mcp_prompt_protocol, mcp_resource_protocol, mcp_skill_protocol,
               mcp_event_protocol]),
    user:conforms_to_protocol(O, P), !.

:- multifile rondo_loaded_module/1.
:- dynamic rondo_loaded_module/1.
