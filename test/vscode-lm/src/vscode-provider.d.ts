/**
 * The language model provider API (stable since VS Code 1.104), declared over the project's @types/vscode
 * 1.95 for this test extension only: the product itself targets ^1.95 and must not see it (this folder
 * has its own tsconfig, excluded from the product's).
 */
import 'vscode';

declare module 'vscode' {
  export interface LanguageModelChatInformation {
    readonly id: string;
    readonly name: string;
    readonly family: string;
    readonly tooltip?: string;
    readonly detail?: string;
    readonly version: string;
    readonly maxInputTokens: number;
    readonly maxOutputTokens: number;
    readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
  }

  export interface LanguageModelChatRequestMessage {
    readonly role: LanguageModelChatMessageRole;
    readonly content: ReadonlyArray<LanguageModelTextPart | LanguageModelToolResultPart | LanguageModelToolCallPart | unknown>;
    readonly name: string | undefined;
  }

  export interface ProvideLanguageModelChatResponseOptions {
    readonly modelOptions?: { readonly [name: string]: unknown };
    readonly tools?: readonly LanguageModelChatTool[];
    readonly toolMode: LanguageModelChatToolMode;
  }

  export interface LanguageModelChatProvider<T extends LanguageModelChatInformation = LanguageModelChatInformation> {
    readonly onDidChangeLanguageModelChatInformation?: Event<void>;
    provideLanguageModelChatInformation(options: { readonly silent: boolean }, token: CancellationToken): ProviderResult<T[]>;
    provideLanguageModelChatResponse(
      model: T,
      messages: readonly LanguageModelChatRequestMessage[],
      options: ProvideLanguageModelChatResponseOptions,
      progress: Progress<LanguageModelTextPart | LanguageModelToolCallPart>,
      token: CancellationToken,
    ): Thenable<void>;
    provideTokenCount(model: T, text: string | LanguageModelChatRequestMessage, token: CancellationToken): Thenable<number>;
  }

  export namespace lm {
    export function registerLanguageModelChatProvider(vendor: string, provider: LanguageModelChatProvider): Disposable;
  }
}
