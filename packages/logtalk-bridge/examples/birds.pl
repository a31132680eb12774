/*  A small bird-identification expert system as an MCP provider (SWI-Prolog module).

    One tool, identify_bird, asks the user questions until one bird fits:
    - on the legacy wire, with tool_call/4 (the Elicit closure asks while the call waits);
    - on the modern wire (and for legacy clients without elicitation), with the round hook
      tool_call_round/4: each question is an input request, the answers so far are the state.
*/
:- module(birds, []).

capabilities([elicitation, resources]).

tools([tool(identify_bird, identify_bird, 0)]).

:- mode(identify_bird, one).
:- info(identify_bird/0, [title is 'Identify a bird', comment is 'Asks about a bird you saw and names it.']).

output_schema(identify_bird, {type-object, properties-{message-{type-string}}, required-[message]}).

% bird(Name, Facts): what tells each bird apart.
bird(peregrine_falcon, [size-medium, bill-hooked, flight-fast_dives]).
bird(osprey, [size-large, bill-hooked, eats-fish]).
bird(mallard, [size-medium, bill-flat, feet-webbed, voice-quack]).
bird(canada_goose, [size-large, bill-flat, feet-webbed, neck-long, voice-honk]).
bird(mute_swan, [size-large, bill-flat, feet-webbed, neck-long, color-white]).
bird(barn_swallow, [size-small, tail-forked, flight-agile]).
bird(european_robin, [size-small, breast-orange]).

% Attributes answered by choosing among values; all others are yes/no questions.
menu(size, [small, medium, large]).
menu(tail, [forked, square, pointed]).

% The legacy path: ask in a loop while the tool call waits.
tool_call(identify_bird, _, Elicit, Result) :-
    identify(Elicit, [], Result).

identify(Elicit, Known, Result) :-
    next_step(Known, Step),
    (   Step = ask(Question)
    ->  question_form(Question, Message, Schema),
        call(Elicit, Message, Schema, Answer),
        (   apply_answer(Question, Answer, Known, Known1)
        ->  identify(Elicit, Known1, Result)
        ;   final(none, Result)
        )
    ;   final(Step, Result)
    ).

% The round path: the state is the answers so far and the question pending.
tool_call_round(identify_bird, _, request_context(_, Responses, State, Progress), Result) :-
    (   State == none -> Known = []
    ;   State = asked(Known0, Question),
        (   memberchk(input_response(q, Answer), Responses),
            apply_answer(Question, Answer, Known0, Known1)
        ->  Known = Known1
        ;   Known = stopped
        )
    ),
    (   Known == stopped -> final(none, Final), Result = complete(Final)
    ;   length(Known, N), call(Progress, N, none, 'questions answered'),
        next_step(Known, Step),
        (   Step = ask(Q)
        ->  question_form(Q, Message, Schema),
            Result = input_required([input_request(q, form_elicitation(Message, Schema))], asked(Known, Q))
        ;   final(Step, Final), Result = complete(Final)
        )
    ).

final(identified(Bird), structured([text(T)], {message-T})) :-
    format(atom(T), 'Identified bird: ~w', [Bird]).
final(none, structured([text(T)], {message-T})) :-
    T = 'No bird could be identified from the given characteristics.'.

% next_step(+Known, -Step): the first bird not contradicted decides what to ask next.
next_step(Known, Step) :-
    (   bird(Bird, Facts), \+ contradicted(Facts, Known)
    ->  (   member(A-V, Facts), \+ memberchk(A-V-yes, Known)
        ->  ( menu(A, Values) -> Step = ask(menu(A, Values)) ; Step = ask(yes_no(A, V)) )
        ;   Step = identified(Bird)
        )
    ;   Step = none
    ).

contradicted(Facts, Known) :-
    member(A-V, Facts),
    (   memberchk(A-V-no, Known) -> true
    ;   member(A-Other-yes, Known), Other \== V
    ), !.

question_form(yes_no(A, V), Message, {type-object, properties-{answer-{type-string, enum-[yes, no]}}, required-[answer]}) :-
    format(atom(Message), '~w: ~w?', [A, V]).
question_form(menu(A, Values), Message, {type-object, properties-{answer-{type-string, enum-Values}}, required-[answer]}) :-
    format(atom(Message), 'What is its ~w?', [A]).

% apply_answer(+Question, +Answer, +Known, -Known1): fails when the user declined or cancelled.
apply_answer(yes_no(A, V), accept({answer-Reply}), Known, [A-V-Reply|Known]) :-
    memberchk(Reply, [yes, no]).
apply_answer(menu(A, Values), accept({answer-Choice}), Known, [A-Choice-yes|Known]) :-
    memberchk(Choice, Values).

resources([resource('birds://known', known_birds, 'The birds this expert knows', 'text/plain')]).

resource_read('birds://known', _, contents([text_content('birds://known', 'text/plain', Text)])) :-
    findall(B, bird(B, _), Birds),
    atomic_list_concat(Birds, ', ', Text).
