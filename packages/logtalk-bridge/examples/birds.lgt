% A small bird-identification expert system as an MCP provider (Logtalk object).
% The same expert as birds.pl: tool_call/4 elicitation on the legacy wire, the round hook
% tool_call_round/4 (answers so far kept in the request state) on the modern wire.

:- object(birds,
	implements([mcp_tool_protocol, mcp_resource_protocol, mcp_multiround_protocol])).

	:- info([comment is 'Identifies a bird from yes/no and multiple-choice questions.']).

	capabilities([elicitation, resources]).

	tools([tool(identify_bird, identify_bird, 0)]).

	:- public(identify_bird/0).
	:- mode(identify_bird, one).
	:- info(identify_bird/0, [title is 'Identify a bird', comment is 'Asks about a bird you saw and names it.']).

	output_schema(identify_bird, {type-object, properties-{message-{type-string}}, required-[message]}).

	:- meta_predicate(tool_call(*, *, 3, *)).
	tool_call(identify_bird, _, Elicit, Result) :-
		identify(Elicit, [], Result).

	:- meta_predicate(identify(3, *, *)).
	identify(Elicit, Known, Result) :-
		next_step(Known, Step),
		(	Step = ask(Question) ->
			question_form(Question, Message, Schema),
			call(Elicit, Message, Schema, Answer),
			(	apply_answer(Question, Answer, Known, Known1) ->
				identify(Elicit, Known1, Result)
			;	final(none, Result)
			)
		;	final(Step, Result)
		).

	tool_call_round(identify_bird, _, request_context(_, Responses, State, Progress), Result) :-
		(	State == none -> Known = []
		;	State = asked(Known0, Question),
			(	member(input_response(q, Answer), Responses),
				apply_answer(Question, Answer, Known0, Known1) ->
				Known = Known1
			;	Known = stopped
			)
		),
		(	Known == stopped ->
			final(none, Final), Result = complete(Final)
		;	length(Known, N), call(Progress, N, none, 'questions answered'),
			next_step(Known, Step),
			(	Step = ask(Q) ->
				question_form(Q, Message, Schema),
				Result = input_required([input_request(q, form_elicitation(Message, Schema))], asked(Known, Q))
			;	final(Step, Final), Result = complete(Final)
			)
		).

	final(identified(Bird), structured([text(Text)], {message-Text})) :-
		atom_concat('Identified bird: ', Bird, Text).
	final(none, structured([text(Text)], {message-Text})) :-
		Text = 'No bird could be identified from the given characteristics.'.

	bird(peregrine_falcon, [size-medium, bill-hooked, flight-fast_dives]).
	bird(osprey, [size-large, bill-hooked, eats-fish]).
	bird(mallard, [size-medium, bill-flat, feet-webbed, voice-quack]).
	bird(canada_goose, [size-large, bill-flat, feet-webbed, neck-long, voice-honk]).
	bird(mute_swan, [size-large, bill-flat, feet-webbed, neck-long, color-white]).
	bird(barn_swallow, [size-small, tail-forked, flight-agile]).
	bird(european_robin, [size-small, breast-orange]).

	menu(size, [small, medium, large]).
	menu(tail, [forked, square, pointed]).

	next_step(Known, Step) :-
		(	bird(Bird, Facts), \+ contradicted(Facts, Known) ->
			(	member(A-V, Facts), \+ member(A-V-yes, Known) ->
				(	menu(A, Values) -> Step = ask(menu(A, Values)) ; Step = ask(yes_no(A, V)) )
			;	Step = identified(Bird)
			)
		;	Step = none
		).

	contradicted(Facts, Known) :-
		member(A-V, Facts),
		(	member(A-V-no, Known) -> true
		;	member(A-Other-yes, Known), Other \== V
		), !.

	question_form(yes_no(A, V), Message, {type-object, properties-{answer-{type-string, enum-[yes, no]}}, required-[answer]}) :-
		atom_concat(A, ': ', M0), atom_concat(M0, V, M1), atom_concat(M1, '?', Message).
	question_form(menu(A, Values), Message, {type-object, properties-{answer-{type-string, enum-Values}}, required-[answer]}) :-
		atom_concat('What is its ', A, M0), atom_concat(M0, '?', Message).

	apply_answer(yes_no(A, V), accept({answer-Reply}), Known, [A-V-Reply| Known]) :-
		member(Reply, [yes, no]), !.
	apply_answer(menu(A, Values), accept({answer-Choice}), Known, [A-Choice-yes| Known]) :-
		member(Choice, Values), !.

	resources([resource('birds://known', known_birds, 'The birds this expert knows', 'text/plain')]).

	resource_read('birds://known', _, contents([text_content('birds://known', 'text/plain', Text)])) :-
		findall(B, bird(B, _), Birds),
		atomic_list_concat(Birds, ', ', Text).

	member(X, [X| _]).
	member(X, [_| T]) :- member(X, T).

	length(List, N) :- length(List, 0, N).
	length([], N, N).
	length([_| T], N0, N) :- N1 is N0 + 1, length(T, N1, N).

:- end_object.
