package ask_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcphost/mcphost/ask"
)

// formsOnly fills in servers' forms and asks nothing else.
type formsOnly struct{ ask.Nobody }

func (formsOnly) Elicit(_ context.Context, req ask.FormRequest) (ask.FormAnswer, error) {
	return ask.FormAnswer{Action: ask.Accept, Content: map[string]any{"name": "Ann"}}, nil
}

// An Asker that answers only forms embeds Nobody: its other questions
// return ErrNoOne, which the host answers as a run without a person does.
func Example_someQuestions() {
	var a ask.Asker = formsOnly{}
	ctx := context.Background()
	form, _ := a.Elicit(ctx, ask.FormRequest{Server: "crm", Message: "Your name?", Mode: "form"})
	fmt.Println(form.Action, form.Content["name"])
	_, err := a.ApproveCall(ctx, ask.CallRequest{Name: "fs__write_file"})
	fmt.Println(errors.Is(err, ask.ErrNoOne))
	// Output:
	// accept Ann
	// true
}
