package server

import (
	"context"
	"fmt"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	protocodec "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
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

// decodeErrorField is the field number under which the codec records, as an
// unknown field of an emptied request, why the request could not be decoded:
// the largest field number protobuf allows, which no message of the API uses.
const decodeErrorField protowire.Number = protowire.MaxValidNumber

// codec is grpc-go's proto codec, except that a request it cannot decode is
// emptied and marked (decodeErrorField) instead of failing. It is stateless
// and safe for concurrent use.
type codec struct{ encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(protocodec.Name)} }

// Unmarshal decodes data into v. When that fails for a protobuf message it
// resets v, records what to fix in it and returns nil; the interceptors
// turn the record into INVALID_ARGUMENT.
func (c codec) Unmarshal(data mem.BufferSlice, v any) error {
	err := c.CodecV2.Unmarshal(data, v)
	m, ok := v.(proto.Message)
	if err == nil || !ok {
		return err
	}
	why := decodeProblem(data.Materialize(), m.ProtoReflect().Descriptor(), err)
	proto.Reset(m)
	mark := protowire.AppendTag(nil, decodeErrorField, protowire.BytesType)
	m.ProtoReflect().SetUnknown(protowire.AppendString(mark, why))
	return nil
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

// decodeError returns the INVALID_ARGUMENT the codec recorded in req, or nil.
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
		if num == decodeErrorField && typ == protowire.BytesType {
			why, n := protowire.ConsumeBytes(u)
			if n < 0 {
				return nil
			}
			return status.Error(codes.InvalidArgument, string(why))
		}
		if n = protowire.ConsumeFieldValue(num, typ, u); n < 0 {
			return nil
		}
		u = u[n:]
	}
	return nil
}

// DecodeUnaryInterceptor refuses a unary call whose request the server's
// codec could not decode, with INVALID_ARGUMENT saying what to fix.
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
