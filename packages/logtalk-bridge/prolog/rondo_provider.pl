/*  The provider seen the same way in both flavours: a plain module (goals called module-
    qualified) or a Logtalk object (goals sent with ::). Also reflection on mode/2 and info/2.
*/
:- module(rondo_provider, [
    set_provider/2, provider/2, hook/1, hook_defined/1, provider_call/1,
    pred_modes/2, pred_info/2, detect_provider/2
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
    provider(Flavour, Name),
    functor(Goal, F, A),
    (   Flavour == logtalk
    ->  Query =.. ['::', Name, current_predicate(F/A)], catch(user:Query, _, fail)
    ;   current_predicate(Name:F/A)
    ).

%!  pred_modes(+Head, -Modes) is det.
%   The argument modes of the first mode/2 directive, or all `+` (untyped) when there is none.
pred_modes(Head, Modes) :-
    (   first_mode(Head, Template) -> Template =.. [_|Modes]
    ;   functor(Head, _, A), length(Modes, A), maplist(=(+), Modes)
    ).

first_mode(Head, Template) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  Query =.. ['::', Name, predicate_property(Head, mode(Template, _))],
        catch(user:Query, _, fail), !
    ;   module_mode(Name, Head, Template), !
    ).

%!  pred_info(+Head, -Pairs) is det.
%   The info/2 list as Key(Value) terms ([] when there is none).
pred_info(Head, Pairs) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  Query =.. ['::', Name, predicate_property(Head, info(Pairs0))],
        ( catch(user:Query, _, fail) -> Pairs = Pairs0 ; Pairs = [] )
    ;   ( module_info(Name, Head, Pairs0) -> Pairs = Pairs0 ; Pairs = [] )
    ).

%!  detect_provider(+Flavour, -Name) is semidet.
%   The provider among what was loaded: for Logtalk, the last object conforming to one of the
%   mcp_*_protocol protocols; for modules, the first loaded module defining a list hook.
detect_provider(logtalk, Name) :-
    findall(O, (user:current_object(O), mcp_object(O)), Os),
    last(Os, Name).
detect_provider(plain, Name) :-
    rondo_loaded_module(Name),
    member(PI, [tools/1, prompts/1, resources/1, resource_templates/1, skills/1]),
    current_predicate(Name:PI), !.

mcp_object(O) :-
    member(P, [mcp_tool_protocol, mcp_prompt_protocol, mcp_resource_protocol, mcp_skill_protocol]),
    catch(user:conforms_to_protocol(O, P), _, fail), !.

:- multifile rondo_loaded_module/1.
:- dynamic rondo_loaded_module/1.
