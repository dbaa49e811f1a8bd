package server

import (
	"context"
	"fmt"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	protocodec "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// grpc-go answers a request it cannot decode (a string field that is not
// UTF-8, bytes that are not a protobuf message) with INTERNAL and the
// decoder's words, before any interceptor runs: to the caller that reads as
// the sidecar's fault. The server's codec turns such a request into one the
// decodeInterceptors then refuse with INVALID_ARGUMENT, naming the field to
// fix.

// The same goes for a request over the message limit (grpc-go's "received
// message larger than max" names neither the flag nor what to send
// instead): grpc-go reads requests up to receiveLimit, and the codec refuses
// those over the limit, which the interceptors answer with
// RESOURCE_EXHAUSTED.

// decodeErrorField and tooLargeField are the field numbers under which the
// codec records, as an unknown field of an emptied request, why the request
// could not be decoded or is too large: the largest field numbers protobuf
// allows, which no message of the API uses.
const (
	decodeErrorField protowire.Number = protowire.MaxValidNumber
	tooLargeField    protowire.Number = protowire.MaxValidNumber - 1
)

// codec is grpc-go's proto codec, except that a request it cannot decode,
// or one over limit bytes, is emptied and marked (decodeErrorField,
// tooLargeField) instead of failing. It is stateless and safe for
// concurrent use.
type codec struct {
	encoding.CodecV2
	limit int
}

// newCodec returns the codec of a server whose message limit is limit bytes
// (0: no limit of its own).
func newCodec(limit int) codec { return codec{encoding.GetCodecV2(protocodec.Name), limit} }

// Unmarshal decodes data into v. When data is over the limit, or decoding
// fails, for a protobuf message, it resets v, records why in it and
// returns nil; the interceptors turn the record into RESOURCE_EXHAUSTED or
// INVALID_ARGUMENT.
func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(proto.Message)
	if ok && c.limit > 0 && data.Len() > c.limit {
		mark(m, tooLargeField, requestTooLarge(data.Len(), c.limit))
		return nil
	}
	err := c.CodecV2.Unmarshal(data, v)
	if err == nil || !ok {
		return err
	}
	mark(m, decodeErrorField, decodeProblem(data.Materialize(), m.ProtoReflect().Descriptor(), err))
	return nil
}

// mark empties m and records why under field.
func mark(m proto.Message, field protowire.Number, why string) {
	proto.Reset(m)
	b := protowire.AppendTag(nil, field, protowire.BytesType)
	m.ProtoReflect().SetUnknown(protowire.AppendString(b, why))
}

// decodeProblem says why b is not a valid md, and what to fix: the first
// string field that is not UTF-8 (by its path, e.g. "tools[2].description"),
// else the decoder's error. It never quotes the request's content.
func decodeProblem(b []byte, md protoreflect.MessageDescriptor, err error) string {
	if path, ok := invalidUTF8Field(b, md, ""); ok {
		return fmt.Sprintf("request field %s is not valid UTF-8; protobuf string fields must hold UTF-8 text: "+
			"convert the text to UTF-8 (or drop the bytes that are not) before sending it", path)
	}
	return fmt.Sprintf("the request is not a valid %s message (%v); send it with code generated from proto/toolsearch/v1",
		md.FullName(), err)
}

// invalidUTF8Field returns the path of the first string field of b (a
// message md, under prefix) whose bytes are not UTF-8.
func invalidUTF8Field(b []byte, md protoreflect.MessageDescriptor, prefix string) (string, bool) {
	counts := map[protowire.Number]int{} // occurrences of each repeated field so far
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", false
		}
		b = b[n:]
		fd := md.Fields().ByNumber(num)
		if fd == nil || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return "", false
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return "", false
		}
		b = b[n:]
		path := prefix + string(fd.Name())
		if fd.IsList() || fd.IsMap() {
			path += fmt.Sprintf("[%d]", counts[num])
			counts[num]++
		}
		switch fd.Kind() {
		case protoreflect.StringKind:
			if !utf8.Valid(v) {
				return path, true
			}
		case protoreflect.MessageKind:
			if p, ok := invalidUTF8Field(v, fd.Message(), path+"."); ok {
				return p, true
			}
		}
	}
	return "", false
}

// decodeError returns the error the codec recorded in req, or nil: an
// INVALID_ARGUMENT for a request it could not decode, a RESOURCE_EXHAUSTED
// for one over the limit.
func decodeError(req any) error {
	m, ok := req.(proto.Message)
	if !ok {
		return nil
	}
	u := m.ProtoReflect().GetUnknown()
	for len(u) > 0 {
		num, typ, n := protowire.ConsumeTag(u)
		if n < 0 {
			return nil
		}
		u = u[n:]
		if (num == decodeErrorField || num == tooLargeField) && typ == protowire.BytesType {
			why, n := protowire.ConsumeBytes(u)
			if n < 0 {
				return nil
			}
			if num == tooLargeField {
				return statusMsg(errTooLarge, string(why))
			}
			return statusMsg(errBadRequest, string(why))
		}
		if n = protowire.ConsumeFieldValue(num, typ, u); n < 0 {
			return nil
		}
		u = u[n:]
	}
	return nil
}

// DecodeUnaryInterceptor refuses a unary call whose request the server's
// codec could not decode, with INVALID_ARGUMENT saying what to fix, or
// found over the message limit, with RESOURCE_EXHAUSTED saying what to
// send instead.
func DecodeUnaryInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if err := decodeError(req); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

// DecodeStreamInterceptor is DecodeUnaryInterceptor for the messages of
// streaming calls (health Watch, server reflection).
func DecodeStreamInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		return handler(srv, decodingStream{ss})
	}
}

type decodingStream struct{ grpc.ServerStream }

func (s decodingStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	return decodeError(m)
}
