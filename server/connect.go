package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/clients/go/toolsearchv1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The JSON handler serves every unary method of the search and health
// services with the Connect protocol's unary form
// (https://connectrpc.com/docs/protocol): POST /<service>/<method> with a
// JSON (application/json) or binary protobuf (application/proto) request
// body, answered in the same encoding. A call runs through the gRPC
// server's own interceptor chain (authentication, limits, deadline,
// logging, metrics) and method handlers, so a JSON call is a gRPC call in
// every respect but the wire: HTTP headers are its metadata
// ("authorization: Bearer …", "traceparent"), Connect-Timeout-Ms is its
// deadline, and an error is the same status code and message, sent as
// {"code": "invalid_argument", "message": "…"} with the HTTP status of
// httpStatus.

// connectMethod is one method the JSON handler serves.
type connectMethod struct {
	srv  any
	desc grpc.MethodDesc
}

// connectTimeoutHeader carries a call's deadline in milliseconds (at most
// 10 digits), as the Connect protocol defines it.
const connectTimeoutHeader = "Connect-Timeout-Ms"

// jsonRequest and protoRequest are the content types the handler reads.
const (
	jsonContentType  = "application/json"
	protoContentType = "application/proto"
)

// Request and answer JSON: proto3 JSON with the proto field names
// (snake_case, as in the reference format); either name form is read.
var (
	jsonIn  = protojson.UnmarshalOptions{}
	jsonOut = protojson.MarshalOptions{UseProtoNames: true}
)

// connectHandler returns the JSON handler of s.
func (s *Server) connectHandler() http.Handler {
	methods := map[string]connectMethod{}
	for _, svc := range []struct {
		desc *grpc.ServiceDesc
		srv  any
	}{{&toolsearchv1.ToolSearchService_ServiceDesc, s.service}, {&healthpb.Health_ServiceDesc, s.health}} {
		for _, md := range svc.desc.Methods {
			methods["/"+svc.desc.ServiceName+"/"+md.MethodName] = connectMethod{srv: svc.srv, desc: md}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serveConnect(w, r, methods)
	})
}

func (s *Server) serveConnect(w http.ResponseWriter, r *http.Request, methods map[string]connectMethod) {
	w.Header().Set("Cache-Control", "no-store")
	m, ok := methods[r.URL.Path]
	if !ok {
		writeConnectError(w, status.Errorf(codes.Unimplemented,
			"no method %s: POST /toolsearch.v1.ToolSearchService/<Method> (Search, GetToolset, ...), or /grpc.health.v1.Health/Check", r.URL.Path))
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeHTTPError(w, statusf(errBadRequest, "%s takes POST with a JSON body, not %s", r.URL.Path, r.Method), http.StatusMethodNotAllowed)
		return
	}
	ctype, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ctype != jsonContentType && ctype != protoContentType {
		w.Header().Set("Accept-Post", jsonContentType+", "+protoContentType)
		writeHTTPError(w, statusf(errBadRequest,
			"content type %q is not served: send Content-Type: application/json (or application/proto); gRPC clients speak HTTP/2", r.Header.Get("Content-Type")),
			http.StatusUnsupportedMediaType)
		return
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
		writeConnectError(w, status.Errorf(codes.Unimplemented, "content encoding %q is not served: send the body uncompressed", enc))
		return
	}
	ctx := r.Context()
	if v := r.Header.Get(connectTimeoutHeader); v != "" {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms < 0 || len(v) > 10 {
			writeConnectError(w, statusf(errBadRequest, "%s %q is not a number of milliseconds (at most 10 digits)", connectTimeoutHeader, v))
			return
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
		defer cancel()
	}
	ctx = metadata.NewIncomingContext(ctx, headerMetadata(r.Header))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(receiveLimit(s.limit))))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeConnectError(w, statusMsg(errTooLarge, requestTooLarge(int(r.ContentLength), s.limit)))
			return
		}
		writeConnectError(w, statusf(errBadRequest, "reading the request body: %v", err))
		return
	}
	// The request is decoded as the codec decodes gRPC's: a body over the
	// limit or not decodable is recorded in the emptied request, and the
	// chain refuses it after authentication.
	dec := func(v any) error {
		msg, ok := v.(proto.Message)
		if !ok {
			return status.Errorf(codes.Internal, "request type %T is not a protobuf message", v)
		}
		switch {
		case len(body) > s.limit:
			mark(msg, tooLargeField, requestTooLarge(len(body), s.limit))
		case ctype == protoContentType:
			if err := proto.Unmarshal(body, msg); err != nil {
				mark(msg, decodeErrorField, decodeProblem(body, msg.ProtoReflect().Descriptor(), err))
			}
		case len(strings.TrimSpace(string(body))) == 0:
			// An empty body is the empty request, as "{}".
		default:
			if err := jsonIn.Unmarshal(body, msg); err != nil {
				mark(msg, decodeErrorField, fmt.Sprintf("the request body is not a valid JSON %s (%v); field names as in proto/toolsearch/v1 (snake_case or lowerCamelCase)",
					msg.ProtoReflect().Descriptor().FullName(), err))
			}
		}
		return nil
	}
	resp, err := m.desc.Handler(m.srv, ctx, dec, s.unary)
	if err != nil {
		writeConnectError(w, err)
		return
	}
	msg, ok := resp.(proto.Message)
	if !ok {
		writeConnectError(w, status.Errorf(codes.Internal, "answer type %T is not a protobuf message", resp))
		return
	}
	var out []byte
	if ctype == protoContentType {
		out, err = proto.Marshal(msg)
	} else {
		out, err = jsonOut.Marshal(msg)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "encoding an answer", "method", r.URL.Path, "error", err.Error())
		writeConnectError(w, statusMsg(errInternal, "internal error; the sidecar's log has the details"))
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

// headerMetadata turns HTTP request headers into gRPC metadata (lower-case
// keys), as grpc-go does for a gRPC call's headers; the body's framing
// headers are left out.
func headerMetadata(h http.Header) metadata.MD {
	md := make(metadata.MD, len(h))
	for k, vs := range h {
		switch k {
		case "Content-Length", "Content-Encoding", "Connection", "Accept-Encoding", connectTimeoutHeader:
			continue
		}
		md[strings.ToLower(k)] = append([]string(nil), vs...)
	}
	return md
}

// connectError is the Connect protocol's error body.
type connectError struct {
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
}

// writeConnectError writes err's status as a Connect error: the code's
// HTTP status and a JSON body. Errors are JSON whatever the request's
// encoding, as the protocol says.
func writeConnectError(w http.ResponseWriter, err error) {
	writeHTTPError(w, err, httpStatus(status.Code(err)))
}

// writeHTTPError is writeConnectError with the HTTP status code, for
// errors of HTTP itself (a wrong method or content type).
func writeHTTPError(w http.ResponseWriter, err error, code int) {
	st := status.Convert(err)
	b, _ := json.Marshal(connectError{Code: connectCode(st.Code()), Message: st.Message()})
	w.Header().Set("Content-Type", jsonContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

// connectCode is the Connect protocol's name of a gRPC code: the gRPC
// name in snake_case ("invalid_argument").
func connectCode(c codes.Code) string {
	if c == codes.Canceled {
		return "canceled"
	}
	var b strings.Builder
	for i, r := range c.String() {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// httpStatus is the HTTP status of a gRPC code, as the Connect protocol
// maps them (the same table as gRPC's HTTP mapping of
// google.api.http, with 499 for canceled).
func httpStatus(c codes.Code) int {
	switch c {
	case codes.OK:
		return http.StatusOK
	case codes.Canceled:
		return 499
	case codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	case codes.NotFound:
		return http.StatusNotFound
	case codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unimplemented:
		return http.StatusNotImplemented
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	default: // Unknown, Internal, DataLoss
		return http.StatusInternalServerError
	}
}
